//! Compiled ZenGin (Gothic, Gothic II) data: the binary files the game's engine and tools compile from the
//! sources (`.ASC`, `.MDS`, `.TGA`) and the game ships in its VDFS volumes. Each reader takes bytes and gives
//! what the sources give; finding the files (and reading inside volumes) is the file-access layer's and the
//! model scripts' job.

pub mod msb;
pub mod tex;
