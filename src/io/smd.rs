//! Valve SMD (reference and animation) and VTA vertex animation.

use super::{LoadError, LoadOptions};
use crate::scene::Asset;

pub fn load(_bytes: &[u8], _opts: &LoadOptions) -> Result<Asset, LoadError> {
    Err(LoadError::whole_file("SMD loading is not available in this build"))
}

pub fn load_vta(_bytes: &[u8], _opts: &LoadOptions) -> Result<Asset, LoadError> {
    Err(LoadError::whole_file("VTA loading is not available in this build"))
}
