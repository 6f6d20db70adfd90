// A small VDFS volume writer for the tests and benches (the program only reads volumes): files given by path
// become a catalogue laid out as ZenKit's `Vfs::save` lays it out (each folder's entries together, a folder's
// first child index in its offset, the last entry of each list marked), followed by the files' data, stored
// or as Union's ZippedStreams of `block` bytes per block.

use std::io::Write;

/// One file to put in a volume: its path (`/`-separated) and bytes.
pub struct VdfFile {
    pub path: String,
    pub data: Vec<u8>,
}

impl VdfFile {
    pub fn new(path: &str, data: Vec<u8>) -> Self {
        Self { path: path.to_owned(), data }
    }
}

#[derive(Default)]
struct Folder {
    /// (name, is folder, index into files or folders), in the order first seen.
    entries: Vec<(String, Option<usize>, usize)>,
}

/// A Gothic II volume (`PSVDSC_V2.00\n\r\n\r`) holding `files`, stamped with the MS-DOS date `timestamp`;
/// zipped (volume flags `0xA0`) when `zipped`, in blocks of `block` bytes.
pub fn write_vdf(files: &[VdfFile], timestamp: u32, zipped: bool, block: usize) -> Vec<u8> {
    // The folder tree: folders[0] is the root.
    let mut folders: Vec<Folder> = vec![Folder::default()];
    for (i, file) in files.iter().enumerate() {
        let parts: Vec<&str> = file.path.split('/').filter(|p| !p.is_empty()).collect();
        let mut at = 0;
        for dir in &parts[..parts.len() - 1] {
            let found =
                folders[at].entries.iter().find(|e| e.1.is_some() && e.0.eq_ignore_ascii_case(dir)).map(|e| e.2);
            at = match found {
                Some(f) => f,
                None => {
                    folders.push(Folder::default());
                    let new = folders.len() - 1;
                    folders[at].entries.push((dir.to_string(), Some(new), new));
                    new
                }
            };
        }
        folders[at].entries.push((parts[parts.len() - 1].to_string(), None, i));
    }
    // Catalogue order: a folder's entries, then (depth first) each subfolder's list.
    let mut catalogue: Vec<(String, bool, bool, usize)> = Vec::new(); // name, is folder, last, file or folder index
    let mut first_child: Vec<usize> = vec![0; folders.len()];
    fn lay_out(
        folders: &[Folder],
        folder: usize,
        catalogue: &mut Vec<(String, bool, bool, usize)>,
        first_child: &mut Vec<usize>,
    ) {
        first_child[folder] = catalogue.len();
        let n = folders[folder].entries.len();
        for (k, (name, sub, index)) in folders[folder].entries.iter().enumerate() {
            catalogue.push((name.clone(), sub.is_some(), k + 1 == n, *index));
        }
        for (_, sub, _) in &folders[folder].entries {
            if let Some(sub) = sub {
                lay_out(folders, *sub, catalogue, first_child);
            }
        }
    }
    lay_out(&folders, 0, &mut catalogue, &mut first_child);

    let header_len = 296;
    let data_start = header_len + catalogue.len() * 80;
    let mut data: Vec<u8> = Vec::new();
    let mut offsets = vec![0u32; files.len()];
    for (i, file) in files.iter().enumerate() {
        offsets[i] = (data_start + data.len()) as u32;
        if zipped {
            data.extend(zipped_stream(&file.data, block));
        } else {
            data.extend_from_slice(&file.data);
        }
    }
    let mut out = Vec::new();
    let mut comment = b"Written by the bonescope tests".to_vec();
    comment.resize(256, 0x1A);
    out.extend(comment);
    out.extend(b"PSVDSC_V2.00\n\r\n\r");
    out.extend((catalogue.len() as u32).to_le_bytes());
    out.extend((files.len() as u32).to_le_bytes());
    out.extend(timestamp.to_le_bytes());
    out.extend((files.iter().map(|f| f.data.len()).sum::<usize>() as u32).to_le_bytes());
    out.extend((header_len as u32).to_le_bytes());
    out.extend((if zipped { 0xA0u32 } else { 0x50u32 }).to_le_bytes());
    for (name, is_folder, last, index) in &catalogue {
        let mut field = name.as_bytes().to_vec();
        field.resize(64, b' ');
        out.extend(field);
        let (offset, size) = if *is_folder {
            (first_child[*index] as u32, 0)
        } else {
            (offsets[*index], files[*index].data.len() as u32)
        };
        out.extend(offset.to_le_bytes());
        out.extend(size.to_le_bytes());
        let ty = if *is_folder { 0x8000_0000u32 } else { 0 } | if *last { 0x4000_0000 } else { 0 };
        out.extend(ty.to_le_bytes());
        out.extend(0x20u32.to_le_bytes());
    }
    out.extend(data);
    out
}

/// Union's ZippedStream: `length, block size, block count`, then per block `source length, compressed length,
/// block size` and the zlib-compressed bytes.
pub fn zipped_stream(data: &[u8], block: usize) -> Vec<u8> {
    let blocks = data.len().div_ceil(block);
    let mut out = Vec::new();
    out.extend((data.len() as u32).to_le_bytes());
    out.extend((block as u32).to_le_bytes());
    out.extend((blocks as u32).to_le_bytes());
    for chunk in data.chunks(block) {
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(chunk).unwrap();
        let compressed = z.finish().unwrap();
        out.extend((chunk.len() as u32).to_le_bytes());
        out.extend((compressed.len() as u32).to_le_bytes());
        out.extend((block as u32).to_le_bytes());
        out.extend(compressed);
    }
    out
}
