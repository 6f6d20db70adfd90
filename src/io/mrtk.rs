//! MRTK input animation recordings.

use super::{LoadError, LoadOptions};
use crate::scene::Asset;

pub fn load(_bytes: &[u8], _opts: &LoadOptions) -> Result<Asset, LoadError> {
    Err(LoadError::whole_file("MRTK loading is not available in this build"))
}
