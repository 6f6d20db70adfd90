//! The fixed parts of a compiled GoldSrc model: the 244-byte `studiohdr_t` of a main or texture file, the
//! 76-byte `studioseqhdr_t` of a sequence-group file, and the offset/count pairs that locate every table
//! (Half-Life SDK `engine/studio.h`). Every table is checked against the file's length before a record is read
//! ([`Span::table`]); errors name the header field's byte offset.

use glam::Vec3;

use crate::io::binary::{Reader, table};
use crate::io::{LoadError, LoadErrorKind};

/// `IDST`: a main model or texture file.
pub const STUDIO_MAGIC: &[u8; 4] = b"IDST";
/// `IDSQ`: a sequence-group file (`<name>01.mdl` …).
pub const SEQUENCE_GROUP_MAGIC: &[u8; 4] = b"IDSQ";
/// The one version this reader reads (GoldSrc; Source models are 44–49, Quake's studio format was 6).
pub const VERSION: i32 = 10;

// Record sizes of the tables (studio.h structures, 4-byte fields, no padding).
pub const BONE_SIZE: usize = 112;
pub const CONTROLLER_SIZE: usize = 24;
pub const HITBOX_SIZE: usize = 32;
pub const SEQUENCE_SIZE: usize = 176;
pub const GROUP_SIZE: usize = 104;
pub const TEXTURE_SIZE: usize = 80;
pub const BODYPART_SIZE: usize = 76;
pub const MODEL_SIZE: usize = 112;
pub const MESH_SIZE: usize = 20;
pub const ATTACHMENT_SIZE: usize = 88;
pub const EVENT_SIZE: usize = 76;
pub const ANIM_SIZE: usize = 12;

/// A table's count and offset as the header gives them, with where the count field is (for errors).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Span {
    pub count: i32,
    pub offset: i32,
    /// Byte offset of the count field in its file.
    pub at: u64,
}

impl Span {
    /// The count as a length, or an error naming the field when it is negative.
    pub fn len(&self, what: &str) -> Result<usize, LoadError> {
        usize::try_from(self.count)
            .map_err(|_| LoadError::at_byte(self.at, format!("{what}: the count is {}, a negative number", self.count)))
    }

    /// A cursor over the table's records in `file`, checked to lie inside it.
    pub fn table<'a>(&self, file: &'a [u8], record: usize, what: &str) -> Result<Reader<'a>, LoadError> {
        self.len(what)?;
        if self.count > 0 && self.offset < 0 {
            return Err(LoadError::at_byte(
                self.at + 4,
                format!("{what}: the offset is {}, a negative number", self.offset),
            ));
        }
        table(file, i64::from(self.offset), i64::from(self.count), record, what)
    }
}

/// `studiohdr_t`.
#[derive(Clone, Debug, Default)]
pub struct Header {
    pub name: String,
    pub length: i32,
    pub eye_position: Vec3,
    /// Ideal movement hull (`$bbox`).
    pub hull: [Vec3; 2],
    /// Clipping box (`$cbox`).
    pub clip: [Vec3; 2],
    pub flags: i32,
    pub bones: Span,
    pub controllers: Span,
    pub hitboxes: Span,
    pub sequences: Span,
    pub groups: Span,
    pub textures: Span,
    pub skin_refs: i32,
    pub skin_families: i32,
    pub skin_index: i32,
    /// Byte offset of `numskinref`, for errors.
    pub skin_at: u64,
    pub bodyparts: Span,
    pub attachments: Span,
    /// `soundtable` in Valve's header (studiomdl writes 0); Xash3D keeps its `studiohdr2_t` offset here.
    pub sound_table: i32,
    pub transitions: Span,
}

/// What the first eight bytes say a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `IDST` version 10: a main model or a texture file.
    Studio,
    /// `IDSQ` version 10: a sequence-group file.
    SequenceGroup,
}

/// Checks the magic and the version: `IDST`/`IDSQ` and 10.
pub fn kind(bytes: &[u8]) -> Result<Kind, LoadError> {
    let mut r = Reader::new(bytes);
    let magic: [u8; 4] = r.array("the magic (`IDST`)")?;
    let kind = match &magic {
        m if m == STUDIO_MAGIC => Kind::Studio,
        m if m == SEQUENCE_GROUP_MAGIC => Kind::SequenceGroup,
        _ => {
            return Err(LoadError::at_byte(0, "not a GoldSrc model: the file does not start with `IDST` or `IDSQ`")
                .with_kind(LoadErrorKind::NotThisFormat));
        }
    };
    let version = r.i32("the version")?;
    if version != VERSION {
        let what = match version {
            44..=49 => "a Source engine model",
            6 => "a Quake-era studio model",
            _ => "an unknown studio model version",
        };
        return Err(LoadError::at_byte(
            4,
            format!("MDL version {version} ({what}); only GoldSrc's version {VERSION} is read"),
        )
        .with_kind(LoadErrorKind::Unsupported));
    }
    Ok(kind)
}

/// Reads `studiohdr_t` from the start of `bytes` (after [`kind`] said `Studio`).
pub fn read(bytes: &[u8]) -> Result<Header, LoadError> {
    let mut r = Reader::new(bytes);
    r.skip(8, "the magic and version")?;
    let name = r.fixed_str(64, "the model name")?;
    let length = r.i32("the file length")?;
    let eye_position = r.vec3("the eye position")?;
    let hull = [r.vec3("the hull minimum")?, r.vec3("the hull maximum")?];
    let clip = [r.vec3("the clipping box minimum")?, r.vec3("the clipping box maximum")?];
    let flags = r.i32("the model flags")?;
    let span = |r: &mut Reader<'_>, what: &str| -> Result<Span, LoadError> {
        let at = r.offset();
        Ok(Span { count: r.i32(what)?, offset: r.i32(what)?, at })
    };
    let bones = span(&mut r, "the bone table")?;
    let controllers = span(&mut r, "the bone controller table")?;
    let hitboxes = span(&mut r, "the hitbox table")?;
    let sequences = span(&mut r, "the sequence table")?;
    let groups = span(&mut r, "the sequence group table")?;
    let textures = span(&mut r, "the texture table")?;
    let _texture_data = r.i32("the texture data offset")?;
    let skin_at = r.offset();
    let skin_refs = r.i32("the skin reference count")?;
    let skin_families = r.i32("the skin family count")?;
    let skin_index = r.i32("the skin table offset")?;
    let bodyparts = span(&mut r, "the body part table")?;
    let attachments = span(&mut r, "the attachment table")?;
    let sound_table = r.i32("the sound table")?;
    r.skip(12, "the sound index and groups")?;
    let transitions = span(&mut r, "the transition table")?;
    Ok(Header {
        name,
        length,
        eye_position,
        hull,
        clip,
        flags,
        bones,
        controllers,
        hitboxes,
        sequences,
        groups,
        textures,
        skin_refs,
        skin_families,
        skin_index,
        skin_at,
        bodyparts,
        attachments,
        sound_table,
        transitions,
    })
}

/// Checks the length the header gives against the bytes there are: a file shorter than it says was cut off.
/// Returns a note when it is longer (what follows is not read).
pub fn check_length(length: i32, at: u64, bytes: &[u8], what: &str) -> Result<Option<String>, LoadError> {
    let actual = bytes.len() as u64;
    let Ok(declared) = u64::try_from(length) else {
        return Err(LoadError::at_byte(at, format!("{what}: the length is {length}, a negative number")));
    };
    if declared > actual {
        return Err(LoadError::truncated(
            actual,
            format!(
                "{what} ends at byte {actual}, but its header (byte {at}) gives its length as {declared}: the file was cut off"
            ),
        ));
    }
    Ok((declared < actual).then(|| {
        format!("{what} has {} bytes after the {declared} its header gives; they are not read", actual - declared)
    }))
}
