//! Values the command line's subcommands and the viewer's arguments share: `WIDTHxHEIGHT` sizes.

use crate::AppError;

/// Parses `WIDTHxHEIGHT` (e.g. `800x600`): whole numbers from `min` to 16384 each.
pub fn parse_size(s: &str, min: u32) -> Result<(u32, u32), AppError> {
    let invalid = AppError::Invalid;
    let (w, h) =
        s.split_once(['x', 'X']).ok_or_else(|| invalid(format!("expected WIDTHxHEIGHT such as 800x600, got '{s}'")))?;
    let parse = |v: &str| v.trim().parse::<u32>().map_err(|_| invalid(format!("'{v}' in '{s}' is not a whole number")));
    let (w, h) = (parse(w)?, parse(h)?);
    if !(min..=16384).contains(&w) || !(min..=16384).contains(&h) {
        return Err(invalid(format!("{w}x{h}: each side must be {min} to 16384")));
    }
    Ok((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_their_bounds() {
        assert_eq!(parse_size("800x600", 1).unwrap(), (800, 600));
        assert_eq!(parse_size(" 1600 X 900 ", 100).unwrap(), (1600, 900));
        assert!(parse_size("50x600", 100).unwrap_err().to_string().contains("each side must be 100 to 16384"));
        assert!(parse_size("800", 1).is_err());
        assert!(parse_size("80.5x600", 1).unwrap_err().to_string().contains("not a whole number"));
    }
}
