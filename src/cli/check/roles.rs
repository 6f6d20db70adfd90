//! What part each file plays in a tree, decided in one place: a model script (a whole character), a character
//! (a mesh, with or without a skeleton and clips of its own), an animation (bound to a character), a companion
//! (a file that only means something on one particular mesh, such as a VTA's vertex animation), a compiled
//! Gothic file (put together with the others of its folder by the engine's names, `zengin`), or something
//! `check` leaves alone (textures, notes, recordings).
//!
//! A format declares its role here and nowhere else: [`by_extension`] for formats whose extension says it,
//! [`by_contents`] for those that hold either a mesh or an animation (an SMD reference or sequence, an ASE/ASC
//! scene or its animation). The walk, the pairing and the cache all ask [`role_of`].

use std::path::Path;

use bonescope::io;
use bonescope::io::script;
use bonescope::scene::Format;

/// The part a file plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// A model script (QC, MDS, MMS): a character with every file it names.
    Script,
    /// A mesh: a character of its own, or a part of one (a modular character's shirt).
    Character,
    /// Animation data for a character's skeleton.
    Animation,
    /// Data for one mesh in particular, bound by its vertices (a VTA).
    Companion,
    /// A compiled Gothic file (`.MDH`, `.MDM`, `.MDL`, `.MAN`, `.MMB`, `.MRM`): grouped by the engine's names.
    Compiled,
    /// Not read by `check`.
    Other,
}

/// What a file's extension alone says (`None`: its contents decide, [`by_contents`]).
fn by_extension(extension: &str) -> Option<Role> {
    match extension {
        "psk" | "pskx" => Some(Role::Character),
        "psa" => Some(Role::Animation),
        "vta" => Some(Role::Companion),
        // A GoldSrc `.mdl` is taken before roles are asked (the walk's `sort_compiled`): a `.mdl` here is Gothic's.
        "mdh" | "mdm" | "mdl" | "man" | "mmb" | "mrm" => Some(Role::Compiled),
        // A mesh or its animation: what the file holds decides.
        "smd" | "ase" | "asc" | "dmx" => None,
        _ => Some(Role::Other),
    }
}

/// The role of `path`: a script by its extension, else [`by_extension`], else its contents.
pub fn role_of(path: &Path) -> Role {
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).unwrap_or_default();
    if script::format_from_extension(&extension).is_some() {
        return Role::Script;
    }
    if io::dmx::is_dmx_name(path) && extension != "dmx" {
        // `.dmx.gz`: compressed, so its contents are not looked at here; a model is the likelier.
        return by_contents(path).unwrap_or(Role::Character);
    }
    match by_extension(&extension) {
        Some(role) => role,
        None => by_contents(path).unwrap_or(Role::Character),
    }
}

/// A mesh or an animation, by what the file holds: an SMD with a `triangles` block, an ASE/ASC with faces, is a
/// mesh; without, an animation; a DMX with a `DmeMesh` element is a model, without one an animation or flex
/// controls (a gzip-compressed DMX is not opened here: `None`, so it counts as a mesh). `None` when the file
/// cannot be read (the load reports why) or holds neither. Read through the file-access layer, so files inside
/// a VDFS volume are looked at too.
pub fn by_contents(path: &Path) -> Option<Role> {
    let raw = io::Files::disk().read(path).ok()?.to_vec();
    let format = io::detect_format(raw.get(..raw.len().min(4096))?, Some(path))?;
    // UTF-16 text (an ASE with a byte-order mark): its ASCII keywords are every other byte.
    let bytes: Vec<u8> = match raw.get(..2) {
        Some([0xFF, 0xFE]) => raw.iter().skip(2).step_by(2).copied().collect(),
        Some([0xFE, 0xFF]) => raw.iter().skip(3).step_by(2).copied().collect(),
        _ => raw,
    };
    let has = |needle: &[u8]| memchr::memmem::find(&bytes, needle).is_some();
    let mesh = match format {
        Format::Smd => bytes.split(|&b| b == b'\n').any(|line| line.trim_ascii_start().starts_with(b"triangles")),
        Format::Vta => return Some(Role::Companion),
        Format::Ase => has(b"*MESH_FACE ") || has(b"*MESH_FACE\t"),
        Format::Psk => true,
        Format::Dmx if raw_is_gzip(&bytes) => return None,
        Format::Dmx => has(b"DmeMesh"),
        Format::Psa => false,
        _ => return None,
    };
    Some(if mesh { Role::Character } else { Role::Animation })
}

/// A file under another extension that is a mesh or animation by its first bytes (a file named on the command
/// line); scripts and recordings are known by their extension only.
pub fn role_by_first_bytes(path: &Path) -> Option<Role> {
    let mut head = Vec::with_capacity(4096);
    let read = std::fs::File::open(path)
        .and_then(|f| std::io::Read::read_to_end(&mut std::io::Read::take(f, 4096), &mut head));
    read.ok()?;
    match io::detect_format(&head, None)? {
        Format::Psk | Format::Psa | Format::Smd | Format::Vta | Format::Dmx | Format::Ase => by_contents(path),
        _ => None,
    }
}

fn raw_is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1F, 0x8B])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_by_extension_and_contents() {
        let dir = std::env::temp_dir().join(format!("bonescope-roles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let nodes = "version 1\nnodes\n0 \"root\" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n";
        std::fs::write(dir.join("walk.smd"), nodes).unwrap();
        std::fs::write(dir.join("ref.smd"), format!("{nodes}triangles\nmat\n0 0 0 0 0 0 1 0 0\nend\n")).unwrap();
        assert_eq!(role_of(&dir.join("walk.smd")), Role::Animation);
        assert_eq!(role_of(&dir.join("ref.smd")), Role::Character);
        assert_eq!(role_of(Path::new("x/heroMesh.PSK")), Role::Character);
        assert_eq!(role_of(Path::new("x/heroAnims.psa")), Role::Animation);
        assert_eq!(role_of(Path::new("x/face.vta")), Role::Companion);
        assert_eq!(role_of(Path::new("x/hero.qc")), Role::Script);
        assert_eq!(role_of(Path::new("x/skin.bmp")), Role::Other);
        assert_eq!(role_of(Path::new("x/HUMANS-S_RUN.MAN")), Role::Compiled);
        let dmx_model = "<!-- dmx encoding keyvalues2 1 format model 1 -->\n\"DmElement\" { \"m\" \"DmeMesh\" { } }\n";
        std::fs::write(dir.join("body.dmx"), dmx_model).unwrap();
        std::fs::write(
            dir.join("walk.dmx"),
            "<!-- dmx encoding keyvalues2 1 format model 1 -->\n\"DmeChannelsClip\" { }\n",
        )
        .unwrap();
        assert_eq!(role_of(&dir.join("body.dmx")), Role::Character);
        assert_eq!(role_of(&dir.join("walk.dmx")), Role::Animation);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
