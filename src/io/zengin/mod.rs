//! Gothic's compiled ZenGin data: the binary files the engine makes from the ASC/MDS sources and ships in its
//! VDF archives. This module holds their shared framing (`chunk`: the chunked `zCFileBIN` files and the values
//! they are written with); the readers of each format live beside it.

pub mod chunk;
