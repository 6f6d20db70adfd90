//! VDFS volumes (`.vdf`): the archives Gothic and Gothic II ship their data in. This module reads one volume's
//! header and catalogue into a tree of names, and an entry's bytes out of it; mounting volumes as folders of
//! the file-access interface, and several volumes together, is [`super::mount`]. It knows nothing of what the
//! entries hold.
//!
//! The layout follows ZenKit (`src/Vfs.cc`, `docs/engine/formats/vdf.md`), PhysicsFS's `physfs_archiver_vdf.c`
//! and the files themselves:
//! - a 296-byte header: a 256-byte comment (padded with `0x1A`), a 16-byte signature (`PSVDSC_V2.00\r\n\r\n`
//!   Gothic, `PSVDSC_V2.00\n\r\n\r` Gothic II, `PSVDSC_V2.00\x1A\x1A\x1A\x1A` the modders' VDFS Tool), the
//!   entry count, the file count (in that order: the corpus's `basic.vdf` has 7 entries of which 5 are files,
//!   stored `7, 5`; ZenKit's format page lists them the other way round, its reader in this order), the volume's
//!   timestamp in the MS-DOS packed date format, the data size, the catalogue's offset (0: right after the
//!   header, as ZenKit reads it) and the volume flags;
//! - the catalogue: 80-byte entries (a 64-byte name padded with spaces, offset, size, type, attributes). A
//!   folder's entries follow one another up to the one whose type has `0x40000000` (last); a folder entry
//!   (`0x80000000`) gives the catalogue index of its first child; a file entry the byte offset of its data;
//! - the volume flags: `0x50` stores files as they are, `0xA0` (Union's compressed, "zipped", volumes) stores
//!   each file as a ZippedStream (see [`read_zipped`]); another value is read as `0x50`, as ZenKit does, with a
//!   note.
//!
//! Bounded: the catalogue's counts and offsets are checked against the archive's length before anything is read
//! or allocated, every catalogue entry is visited at most once (a folder whose list loops back is an error, not
//! an endless walk), and a compressed entry's blocks may expand at most as far as deflate can (1032 : 1) before
//! a byte is allocated for them. Only the header and the catalogue are read to open a volume; an entry is read
//! (and decompressed) on its own.

use rustc_hash::FxHashMap as HashMap;

use crate::io::binary::Reader;
use crate::io::{LoadError, LoadErrorKind};

/// Bytes of the header.
pub const HEADER_LEN: usize = 296;
/// Bytes of one catalogue entry.
pub const ENTRY_LEN: usize = 80;

/// Type bit of a folder entry.
const ENTRY_FOLDER: u32 = 0x8000_0000;
/// Type bit of the last entry of a folder's list.
const ENTRY_LAST: u32 = 0x4000_0000;
/// Volume flags of a volume storing files as they are.
const FLAGS_NORMAL: u32 = 0x50;
/// Volume flags of a Union "zipped" volume (ZenKit `VFS_VOLUME_FLAG_ZIPPED`).
const FLAGS_ZIPPED: u32 = 0xA0;
/// Deflate's largest expansion: one 258-byte match per 2-bit code, about 1032 : 1 (zlib's FAQ).
const MAX_INFLATE_RATIO: u64 = 1032;
/// Notes kept about one volume at most (a hostile catalogue could otherwise have one per entry).
const MAX_NOTES: usize = 32;

/// Which tool wrote a volume, from its signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signature {
    Gothic1,
    Gothic2,
    /// The modding community's VDFS Tool.
    VdfsTool,
}

impl Signature {
    pub fn describe(self) -> &'static str {
        match self {
            Signature::Gothic1 => "Gothic",
            Signature::Gothic2 => "Gothic II",
            Signature::VdfsTool => "VDFS Tool",
        }
    }
}

/// A volume's header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The comment, up to its `0x1A` padding.
    pub comment: String,
    pub signature: Signature,
    pub entry_count: u32,
    pub file_count: u32,
    /// MS-DOS packed date and time ([`dos_time`]). As a number it orders volumes by time: the fields run from
    /// the year in the top bits down to the seconds.
    pub timestamp: u32,
    pub data_size: u32,
    pub catalogue_offset: u32,
    /// Whether the files are stored as ZippedStreams (flags `0xA0`).
    pub zipped: bool,
    /// The volume flags as stored.
    pub flags: u32,
}

impl Header {
    /// Reads the header from the first [`HEADER_LEN`] bytes of a volume.
    pub fn parse(bytes: &[u8]) -> Result<Header, LoadError> {
        let mut r = Reader::new(bytes);
        let comment_bytes = r.take(256, "VDF header comment")?;
        let comment_end = comment_bytes.iter().position(|b| *b == 0x1A).unwrap_or(comment_bytes.len());
        let comment = crate::io::binary::decode_c_str(&comment_bytes[..comment_end]).trim_end().to_owned();
        let signature_bytes = r.take(16, "VDF signature")?;
        let signature = match signature_bytes {
            b"PSVDSC_V2.00\r\n\r\n" => Signature::Gothic1,
            b"PSVDSC_V2.00\n\r\n\r" => Signature::Gothic2,
            b"PSVDSC_V2.00\x1A\x1A\x1A\x1A" => Signature::VdfsTool,
            other => {
                return Err(LoadError::at_byte(
                    256,
                    format!(
                        "not a VDFS volume: the signature is {:?}, not PSVDSC_V2.00 as Gothic, Gothic II or the VDFS \
                         Tool write it",
                        String::from_utf8_lossy(other)
                    ),
                )
                .with_kind(LoadErrorKind::NotThisFormat));
            }
        };
        let entry_count = r.u32("VDF entry count")?;
        let file_count = r.u32("VDF file count")?;
        let timestamp = r.u32("VDF timestamp")?;
        let data_size = r.u32("VDF data size")?;
        let catalogue_offset = r.u32("VDF catalogue offset")?;
        let flags = r.u32("VDF volume flags")?;
        Ok(Header {
            comment,
            signature,
            entry_count,
            file_count,
            timestamp,
            data_size,
            catalogue_offset,
            zipped: flags == FLAGS_ZIPPED,
            flags,
        })
    }

    /// Where the catalogue lies, `(offset, bytes)`, checked against the volume's length `len`.
    pub fn catalogue_range(&self, len: u64) -> Result<(u64, usize), LoadError> {
        // ZenKit: an offset of 0 means the catalogue follows the header.
        let offset = if self.catalogue_offset == 0 { HEADER_LEN as u64 } else { u64::from(self.catalogue_offset) };
        let bytes = u64::from(self.entry_count) * ENTRY_LEN as u64;
        if offset.checked_add(bytes).is_none_or(|end| end > len) {
            return Err(LoadError::truncated(
                272,
                format!(
                    "the catalogue of {} entries ({bytes} bytes at byte {offset}) runs past the end of the {len}-byte \
                     volume",
                    self.entry_count
                ),
            ));
        }
        Ok((offset, bytes as usize))
    }

    /// The timestamp as `YYYY-MM-DD hh:mm:ss`.
    pub fn time_text(&self) -> String {
        let (y, mo, d, h, mi, s) = dos_time(self.timestamp);
        format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}")
    }
}

/// An MS-DOS packed date and time: year (from 1980), month, day, hour, minute, second (stored halved).
pub fn dos_time(packed: u32) -> (u32, u32, u32, u32, u32, u32) {
    (
        1980 + (packed >> 25),
        (packed >> 21) & 0xF,
        (packed >> 16) & 0x1F,
        (packed >> 11) & 0x1F,
        (packed >> 5) & 0x3F,
        (packed & 0x1F) * 2,
    )
}

/// One name of a volume.
#[derive(Clone, Debug)]
pub struct Node {
    /// The name as stored (trailing spaces removed).
    pub name: String,
    /// The folder it is in (the root is its own parent).
    pub parent: usize,
    pub kind: NodeKind,
}

#[derive(Clone, Debug)]
pub enum NodeKind {
    File {
        /// Byte offset of the data in the volume.
        offset: u32,
        /// Size of the file (in a zipped volume, before compression).
        size: u32,
    },
    Folder {
        /// The entries, in catalogue order.
        children: Vec<usize>,
        /// Lower-case name → child: names are matched without regard to case, as the engine does.
        by_name: HashMap<String, usize>,
    },
}

/// A volume's header and catalogue: what is needed to list it and read its entries.
#[derive(Clone, Debug)]
pub struct Volume {
    pub header: Header,
    /// The volume's length in bytes.
    pub len: u64,
    /// `nodes[0]` is the root folder.
    nodes: Vec<Node>,
    /// Lower-case file name → the first file of that name, in catalogue order.
    files_by_name: HashMap<String, usize>,
    /// Lower-case file name → the further files of that name (a name in several folders), in catalogue order.
    more_by_name: HashMap<String, Vec<usize>>,
    /// What was odd about the volume and how it was read.
    pub notes: Vec<String>,
}

/// The root folder's node.
pub const ROOT: usize = 0;

impl Volume {
    /// Reads a volume of `len` bytes: `read(offset, n)` returns `n` bytes of it from `offset` (the header, then
    /// the catalogue, are all it reads).
    pub fn open(len: u64, read: &dyn Fn(u64, usize) -> std::io::Result<Vec<u8>>) -> Result<Volume, LoadError> {
        if len < HEADER_LEN as u64 {
            return Err(LoadError::truncated(
                len,
                format!("a VDFS volume has a {HEADER_LEN}-byte header; this one is {len} bytes"),
            ));
        }
        let head = read(0, HEADER_LEN).map_err(|e| LoadError::io("cannot read the VDF header", &e))?;
        let header = Header::parse(&head)?;
        let (offset, bytes) = header.catalogue_range(len)?;
        let catalogue = read(offset, bytes).map_err(|e| LoadError::io("cannot read the VDF catalogue", &e))?;
        Volume::from_catalogue(header, &catalogue, offset, len)
    }

    /// A volume held in memory whole.
    pub fn parse(bytes: &[u8]) -> Result<Volume, LoadError> {
        Volume::open(bytes.len() as u64, &|offset, n| range_of(bytes, offset, n))
    }

    /// Builds the tree from the catalogue's bytes (`at`: the catalogue's offset in the volume, for errors).
    fn from_catalogue(header: Header, catalogue: &[u8], at: u64, len: u64) -> Result<Volume, LoadError> {
        let mut volume = Volume {
            header,
            len,
            nodes: vec![Node {
                name: String::new(),
                parent: ROOT,
                kind: NodeKind::Folder { children: Vec::new(), by_name: HashMap::default() },
            }],
            files_by_name: HashMap::default(),
            more_by_name: HashMap::default(),
            notes: Vec::new(),
        };
        if volume.header.flags != FLAGS_NORMAL && volume.header.flags != FLAGS_ZIPPED {
            volume.note(format!(
                "unknown volume flags {:#x}: read as a volume storing its files as they are (0x50), as ZenKit does",
                volume.header.flags
            ));
        }
        let count = volume.header.entry_count as usize;
        if count == 0 {
            return Ok(volume);
        }
        volume.files_by_name.reserve(count);
        volume.nodes.reserve(count);
        // Each catalogue entry is read once: a folder whose list points back into one already read (a loop, or
        // two folders sharing a list) is an error rather than an endless walk.
        let mut seen = vec![false; count];
        let mut pending: Vec<(usize, usize)> = vec![(ROOT, 0)];
        while let Some((folder, first)) = pending.pop() {
            let mut index = first;
            loop {
                let entry_at = at + (index * ENTRY_LEN) as u64;
                if index >= count {
                    return Err(LoadError::at_byte(
                        entry_at,
                        format!(
                            "catalogue entry {index}: a folder's list runs past the catalogue's {count} entries \
                             without an entry marked last"
                        ),
                    ));
                }
                if std::mem::replace(&mut seen[index], true) {
                    return Err(LoadError::at_byte(
                        entry_at,
                        format!("catalogue entry {index} is listed twice: a folder's list loops back"),
                    ));
                }
                let mut r = Reader::with_base(&catalogue[index * ENTRY_LEN..(index + 1) * ENTRY_LEN], entry_at);
                let raw_name = r.take(64, "VDF entry name")?;
                let offset = r.u32("VDF entry offset")?;
                let size = r.u32("VDF entry size")?;
                let kind = r.u32("VDF entry type")?;
                let last = kind & ENTRY_LAST != 0;
                let is_folder = kind & ENTRY_FOLDER != 0;
                let named = entry_name(raw_name).map(|name| {
                    let key = name.to_lowercase();
                    (name, key)
                });
                match named {
                    Err(problem) => volume.note(format!("catalogue entry {index}: {problem}; left out")),
                    Ok((name, key)) if is_folder => {
                        let child_first = offset as usize;
                        match volume.child_by_key(folder, &key) {
                            Some(existing) if volume.is_folder(existing) => pending.push((existing, child_first)),
                            Some(_) => volume.note(format!(
                                "catalogue entry {index}: folder \"{name}\" has the name of a file before it; left out"
                            )),
                            None => {
                                let node = volume.add(
                                    folder,
                                    name,
                                    key,
                                    NodeKind::Folder { children: Vec::new(), by_name: HashMap::default() },
                                );
                                pending.push((node, child_first));
                            }
                        }
                    }
                    Ok((name, key)) => {
                        if volume.child_by_key(folder, &key).is_some() {
                            volume.note(format!(
                                "catalogue entry {index}: a second \"{name}\" in the same folder; the first is kept"
                            ));
                        } else {
                            let node = volume.add(folder, name, key.clone(), NodeKind::File { offset, size });
                            match volume.files_by_name.entry(key) {
                                std::collections::hash_map::Entry::Vacant(v) => {
                                    v.insert(node);
                                }
                                std::collections::hash_map::Entry::Occupied(o) => {
                                    volume.more_by_name.entry(o.key().clone()).or_default().push(node);
                                }
                            }
                        }
                    }
                }
                if last {
                    break;
                }
                index += 1;
            }
        }
        Ok(volume)
    }

    fn note(&mut self, note: String) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(note);
        } else if self.notes.len() == MAX_NOTES {
            self.notes.push("(further notes left out)".into());
        }
    }

    fn add(&mut self, folder: usize, name: String, key: String, kind: NodeKind) -> usize {
        let node = self.nodes.len();
        self.nodes.push(Node { name, parent: folder, kind });
        if let Some(NodeKind::Folder { children, by_name }) = self.nodes.get_mut(folder).map(|n| &mut n.kind) {
            children.push(node);
            by_name.insert(key, node);
        }
        node
    }

    /// The entry called `name` (any case) in folder `folder`.
    pub fn child(&self, folder: usize, name: &str) -> Option<usize> {
        self.child_by_key(folder, &name.to_lowercase())
    }

    /// The entry whose lower-case name is `key` in folder `folder`.
    fn child_by_key(&self, folder: usize, key: &str) -> Option<usize> {
        match &self.nodes.get(folder)?.kind {
            NodeKind::Folder { by_name, .. } => by_name.get(key).copied(),
            NodeKind::File { .. } => None,
        }
    }

    /// The entry at `path` (folder names then a name, any case; trailing whitespace of each name ignored, as
    /// ZenKit does); the root for an empty path.
    pub fn resolve<'a>(&self, path: impl IntoIterator<Item = &'a str>) -> Option<usize> {
        let mut at = ROOT;
        for name in path {
            at = self.child(at, name.trim_end())?;
        }
        Some(at)
    }

    pub fn node(&self, index: usize) -> Option<&Node> {
        self.nodes.get(index)
    }

    pub fn is_folder(&self, index: usize) -> bool {
        matches!(self.nodes.get(index).map(|n| &n.kind), Some(NodeKind::Folder { .. }))
    }

    /// The entries of a folder, in catalogue order (empty for a file).
    pub fn children(&self, folder: usize) -> &[usize] {
        match self.nodes.get(folder).map(|n| &n.kind) {
            Some(NodeKind::Folder { children, .. }) => children,
            _ => &[],
        }
    }

    /// Every file called `name` (any case), anywhere, in catalogue order.
    pub fn files_named(&self, name: &str) -> Vec<usize> {
        let key = name.to_lowercase();
        let first = self.files_by_name.get(&key).copied();
        first.into_iter().chain(self.more_by_name.get(&key).into_iter().flatten().copied()).collect()
    }

    /// The names from the root down to `index` (empty for the root).
    pub fn path_of(&self, index: usize) -> Vec<&str> {
        let mut names = Vec::new();
        let mut at = index;
        // Parents were added before their children, so the walk up ends at the root.
        while at != ROOT {
            let Some(node) = self.nodes.get(at) else { break };
            names.push(node.name.as_str());
            if node.parent >= at {
                break;
            }
            at = node.parent;
        }
        names.reverse();
        names
    }

    /// Whether `index` lies in the folder `folder` or below it.
    pub fn is_under(&self, index: usize, folder: usize) -> bool {
        let mut at = index;
        loop {
            if at == folder {
                return true;
            }
            match self.nodes.get(at) {
                Some(node) if node.parent < at => at = node.parent,
                _ => return false,
            }
        }
    }

    /// Every file of the volume.
    pub fn file_count(&self) -> usize {
        self.nodes.iter().filter(|n| matches!(n.kind, NodeKind::File { .. })).count()
    }

    /// The size of a file entry (in a zipped volume, its size before compression).
    pub fn size(&self, index: usize) -> Option<u64> {
        match self.nodes.get(index)?.kind {
            NodeKind::File { size, .. } => Some(u64::from(size)),
            NodeKind::Folder { .. } => None,
        }
    }

    /// A file's bytes (decompressed in a zipped volume). `read` reads the volume as for [`Volume::open`].
    pub fn read(
        &self,
        index: usize,
        read: &dyn Fn(u64, usize) -> std::io::Result<Vec<u8>>,
    ) -> Result<Vec<u8>, LoadError> {
        self.read_prefix(index, u64::MAX, read)
    }

    /// At most the first `limit` bytes of a file: a zipped file's blocks are inflated only as far as needed.
    pub fn read_prefix(
        &self,
        index: usize,
        limit: u64,
        read: &dyn Fn(u64, usize) -> std::io::Result<Vec<u8>>,
    ) -> Result<Vec<u8>, LoadError> {
        let Some(node) = self.nodes.get(index) else {
            return Err(LoadError::whole_file(format!("no VDF entry number {index}")));
        };
        let NodeKind::File { offset, size } = node.kind else {
            return Err(LoadError::whole_file(format!("\"{}\" is a folder of the volume", node.name))
                .with_kind(LoadErrorKind::NotAFile));
        };
        let (offset, size) = (u64::from(offset), u64::from(size));
        if self.header.zipped {
            return read_zipped(&node.name, offset, size, limit, self.len, read);
        }
        read_stored(&node.name, offset, size.min(limit), size, self.len, read)
    }
}

/// An entry's name from its 64 bytes: up to a NUL, trailing whitespace removed (ZenKit `Vfs.cc`, issue #77),
/// Windows-1252. Names that could not be one component of a path are refused.
fn entry_name(raw: &[u8]) -> Result<String, String> {
    let name = crate::io::binary::decode_c_str(raw);
    let name = name.trim_end();
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\\']) {
        return Err(format!("the name {name:?} cannot name a file or folder"));
    }
    Ok(name.to_owned())
}

/// `n` bytes at `offset` of `bytes`.
pub fn range_of(bytes: &[u8], offset: u64, n: usize) -> std::io::Result<Vec<u8>> {
    usize::try_from(offset)
        .ok()
        .and_then(|start| crate::io::binary::slice_at(bytes, start, n))
        .map(<[u8]>::to_vec)
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "read past the end of the volume"))
}

/// `take` bytes of a file stored as it is (`size` bytes at `offset`).
fn read_stored(
    name: &str,
    offset: u64,
    take: u64,
    size: u64,
    len: u64,
    read: &dyn Fn(u64, usize) -> std::io::Result<Vec<u8>>,
) -> Result<Vec<u8>, LoadError> {
    if offset.checked_add(size).is_none_or(|end| end > len) {
        return Err(LoadError::truncated(
            offset,
            format!("\"{name}\": its {size} bytes at byte {offset} run past the end of the {len}-byte volume"),
        ));
    }
    let n = usize::try_from(take).map_err(|_| LoadError::whole_file(format!("\"{name}\" is too large to read")))?;
    read(offset, n).map_err(|e| LoadError::io(&format!("cannot read \"{name}\" from the volume"), &e))
}

/// A file of a zipped volume: a ZippedStream (Union's `vdfs32g.dll`; ZenKit `src/Stream.cc` `ReadZipped`):
/// `length, block size, block count`, then each block's `source length, compressed length, block size` and its
/// compressed bytes (a zlib stream). Union keeps `.WAV` and `.OGG` files uncompressed in zipped volumes; those
/// (and anything else whose first bytes are not a consistent stream header) are read as stored, as ZenKit does.
/// A stream header is consistent when its counts are non-zero, its block count is the length divided by the
/// block size rounded up, and its length is the catalogue's size.
fn read_zipped(
    name: &str,
    offset: u64,
    size: u64,
    limit: u64,
    len: u64,
    read: &dyn Fn(u64, usize) -> std::io::Result<Vec<u8>>,
) -> Result<Vec<u8>, LoadError> {
    let available = len.saturating_sub(offset);
    let stored = || read_stored(name, offset, size.min(limit), size, len, read);
    if available < 12 {
        return stored();
    }
    let head = read(offset, 12).map_err(|e| LoadError::io(&format!("cannot read \"{name}\" from the volume"), &e))?;
    let mut r = Reader::with_base(&head, offset);
    let (length, block_size, blocks) =
        (u64::from(r.u32("stream length")?), u64::from(r.u32("block size")?), u64::from(r.u32("block count")?));
    let consistent =
        length > 0 && block_size > 0 && blocks > 0 && blocks == length.div_ceil(block_size) && length == size;
    if !consistent {
        return stored();
    }
    // The most the blocks can take: each block's header and its bytes compressed at worst (zlib's bound is a
    // little over the input; a generous one here), and never more than the volume holds.
    let bound = |n: u64| n + n / 512 + 64;
    let span = blocks
        .saturating_mul(12)
        .saturating_add(blocks.saturating_sub(1).saturating_mul(bound(block_size)))
        .saturating_add(bound(length - (blocks - 1).saturating_mul(block_size).min(length)))
        .saturating_add(12)
        .min(available);
    let span = usize::try_from(span).map_err(|_| LoadError::whole_file(format!("\"{name}\" is too large to read")))?;
    let bytes =
        read(offset, span).map_err(|e| LoadError::io(&format!("cannot read \"{name}\" from the volume"), &e))?;
    let mut r = Reader::with_base(&bytes, offset);
    r.skip(12, "stream header")?;
    let want = length.min(limit);
    let mut out: Vec<u8> = Vec::new();
    let mut total = 0u64;
    for block in 0..blocks {
        if total >= want {
            break;
        }
        let at = r.offset();
        let source = u64::from(r.u32("block source length")?);
        let compressed = r.u32("block compressed length")? as usize;
        let _block_size = r.u32("block size")?;
        if source > block_size || total + source > length {
            return Err(LoadError::at_byte(
                at,
                format!(
                    "\"{name}\": block {block} says it holds {source} bytes, more than its stream's block size \
                     ({block_size}) or length ({length}) leave"
                ),
            ));
        }
        if source > (compressed as u64).saturating_mul(MAX_INFLATE_RATIO) + 64 {
            return Err(LoadError::at_byte(
                at,
                format!(
                    "\"{name}\": block {block} says {compressed} compressed bytes hold {source}: more than deflate can"
                ),
            ));
        }
        let data = r.take(compressed, "compressed block")?;
        let start = out.len();
        out.resize(start + source as usize, 0);
        inflate(data, &mut out[start..]).map_err(|problem| {
            LoadError::at_byte(at + 12, format!("\"{name}\": block {block} does not inflate: {problem}"))
        })?;
        total += source;
    }
    if total < want {
        return Err(LoadError::truncated(
            offset,
            format!("\"{name}\": its blocks hold {total} bytes of the {length} its stream header promises"),
        ));
    }
    out.truncate(usize::try_from(want).unwrap_or(usize::MAX));
    Ok(out)
}

/// Inflates one zlib stream into exactly `out`.
fn inflate(data: &[u8], out: &mut [u8]) -> Result<(), String> {
    let mut z = flate2::Decompress::new(true);
    match z.decompress(data, out, flate2::FlushDecompress::Finish) {
        Ok(flate2::Status::StreamEnd) if z.total_out() == out.len() as u64 => Ok(()),
        Ok(flate2::Status::StreamEnd) => Err(format!("it gives {} bytes, not {}", z.total_out(), out.len())),
        Ok(_) if z.total_out() == out.len() as u64 => Err(format!("it holds more than its {} bytes", out.len())),
        Ok(_) => Err(format!("the stream ends after {} of its {} bytes", z.total_out(), out.len())),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[allow(dead_code)]
    mod vdf_writer {
        include!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/common/vdf_writer.rs"));
    }
    use vdf_writer::{VdfFile, write_vdf};

    fn sample() -> Vec<VdfFile> {
        vec![
            VdfFile::new("_WORK/DATA/ANIMS/HUMANS.MDS", b"Model (\"HuS\") {}".to_vec()),
            VdfFile::new("_WORK/DATA/ANIMS/_COMPILED/HUMANS.MDH", vec![7; 3000]),
            VdfFile::new("_WORK/DATA/TEXTURES/_COMPILED/SKIN-C.TEX", (0..20000u32).map(|i| (i % 251) as u8).collect()),
            VdfFile::new("README.TXT", b"hello".to_vec()),
        ]
    }

    fn files_of(volume: &Volume, bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
        let mut out = Vec::new();
        let mut stack = vec![ROOT];
        while let Some(folder) = stack.pop() {
            for &child in volume.children(folder) {
                if volume.is_folder(child) {
                    stack.push(child);
                } else {
                    let data = volume.read(child, &|o, n| range_of(bytes, o, n)).unwrap();
                    out.push((volume.path_of(child).join("/"), data));
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn a_volume_lists_and_reads_what_was_written_stored_or_zipped() {
        let files = sample();
        let mut expected: Vec<(String, Vec<u8>)> = files.iter().map(|f| (f.path.clone(), f.data.clone())).collect();
        expected.sort();
        for zipped in [false, true] {
            let bytes = write_vdf(&files, 0x2D65_BBB3, zipped, 97);
            let volume = Volume::parse(&bytes).unwrap();
            assert_eq!(volume.header.zipped, zipped);
            assert_eq!(volume.header.signature, Signature::Gothic2);
            assert_eq!(volume.header.time_text(), "2002-11-05 23:29:38");
            assert_eq!(volume.file_count(), 4);
            assert_eq!(files_of(&volume, &bytes), expected, "zipped {zipped}");
            // Any case, and a path's trailing spaces, as the engine.
            let tex = volume.resolve(["_work", "Data ", "textures", "_compiled", "skin-c.tex"]).unwrap();
            assert_eq!(volume.size(tex), Some(20000));
            assert_eq!(volume.files_named("skin-C.TEX"), [tex]);
            let prefix = volume.read_prefix(tex, 100, &|o, n| range_of(&bytes, o, n)).unwrap();
            assert_eq!(prefix, expected.iter().find(|f| f.0.ends_with("SKIN-C.TEX")).unwrap().1[..100]);
            assert!(volume.notes.is_empty(), "{:?}", volume.notes);
        }
        // Compression did something.
        assert!(write_vdf(&files, 0, true, 4096).len() < write_vdf(&files, 0, false, 4096).len());
    }

    #[test]
    fn hostile_catalogues_are_errors_naming_where() {
        let good = write_vdf(&sample(), 0, false, 0);
        // Too short for the header.
        assert_eq!(Volume::parse(&good[..200]).unwrap_err().kind, LoadErrorKind::Truncated);
        // Another signature.
        let mut bad = good.clone();
        bad[256..272].copy_from_slice(b"PK\x03\x04 not a vdf!!");
        let e = Volume::parse(&bad).unwrap_err();
        assert_eq!(e.kind, LoadErrorKind::NotThisFormat);
        assert!(e.to_string().contains("signature"), "{e}");
        // An entry count the file cannot hold: refused before anything is allocated.
        let mut bad = good.clone();
        bad[272..276].copy_from_slice(&u32::MAX.to_le_bytes());
        let e = Volume::parse(&bad).unwrap_err();
        assert!(e.to_string().contains("runs past the end"), "{e}");
        // A folder pointing back at its own list: a loop, reported.
        let mut bad = good.clone();
        let root_entry = HEADER_LEN; // the first root entry is folder `_WORK`
        bad[root_entry + 64..root_entry + 68].copy_from_slice(&0u32.to_le_bytes());
        let e = Volume::parse(&bad).unwrap_err();
        assert!(e.to_string().contains("listed twice"), "{e}");
        // A list with no entry marked last runs off the catalogue.
        let mut bad = good.clone();
        let count = u32::from_le_bytes(bad[272..276].try_into().unwrap()) as usize;
        for i in 0..count {
            let ty = HEADER_LEN + i * ENTRY_LEN + 72;
            let v = u32::from_le_bytes(bad[ty..ty + 4].try_into().unwrap()) & !ENTRY_LAST;
            bad[ty..ty + 4].copy_from_slice(&v.to_le_bytes());
        }
        let e = Volume::parse(&bad).unwrap_err();
        assert!(e.to_string().contains("without an entry marked last"), "{e}");
        // A file whose data lies past the end: listed, and reading it says so.
        let mut bad = good.clone();
        let readme = (0..count)
            .find(|i| bad[HEADER_LEN + i * ENTRY_LEN..].starts_with(b"README.TXT"))
            .map(|i| HEADER_LEN + i * ENTRY_LEN)
            .unwrap();
        bad[readme + 64..readme + 68].copy_from_slice(&(good.len() as u32 - 2).to_le_bytes());
        let volume = Volume::parse(&bad).unwrap();
        let node = volume.resolve(["readme.txt"]).unwrap();
        let e = volume.read(node, &|o, n| range_of(&bad, o, n)).unwrap_err();
        assert!(e.to_string().contains("run past the end"), "{e}");
    }

    #[test]
    fn hostile_zipped_streams_are_errors_not_allocations() {
        let files = vec![VdfFile::new("A.BIN", vec![5; 5000])];
        let good = write_vdf(&files, 0, true, 100_000);
        let volume = Volume::parse(&good).unwrap();
        let node = volume.resolve(["a.bin"]).unwrap();
        let NodeKind::File { offset, .. } = volume.node(node).unwrap().kind else { panic!() };
        let stream = offset as usize;
        // The first block claims to hold more than its stream's blocks can: refused before allocating.
        let mut bad = good.clone();
        bad[stream + 12..stream + 16].copy_from_slice(&1_000_000u32.to_le_bytes());
        let e = volume.read(node, &|o, n| range_of(&bad, o, n)).unwrap_err();
        assert!(e.to_string().contains("more than its stream's block size"), "{e}");
        // A block whose few compressed bytes claim to inflate to more than deflate can make of them.
        let mut bad = good.clone();
        bad[stream + 16..stream + 20].copy_from_slice(&1u32.to_le_bytes());
        let e = volume.read(node, &|o, n| range_of(&bad, o, n)).unwrap_err();
        assert!(e.to_string().contains("more than deflate can"), "{e}");
        // Corrupt compressed bytes.
        let mut bad = good.clone();
        bad[stream + 26] ^= 0xFF;
        bad[stream + 30] ^= 0xFF;
        let e = volume.read(node, &|o, n| range_of(&bad, o, n)).unwrap_err();
        assert!(e.to_string().contains("does not inflate"), "{e}");
        // Cut short.
        let cut = &good[..good.len() - 20];
        assert!(volume.read(node, &|o, n| range_of(cut, o, n)).is_err());
    }
}
