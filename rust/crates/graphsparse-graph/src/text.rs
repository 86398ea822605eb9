//! Text decoding shared by the readers: UTF-8 with an optional byte-order mark, errors that name
//! the line.

use crate::error::{GraphError, Result};

/// The UTF-8 encoding of U+FEFF, which some editors write at the start of a text file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The contents of `bytes` as text, without a leading byte-order mark.
///
/// Invalid UTF-8 is a [`GraphError::Parse`] naming `file`, the 1-based line of the first bad
/// byte and that byte's offset in the file.
pub(crate) fn decode<'a>(file: &str, bytes: &'a [u8]) -> Result<&'a str> {
    let skip = if bytes.starts_with(BOM) { BOM.len() } else { 0 };
    std::str::from_utf8(&bytes[skip..]).map_err(|e| {
        let offset = skip + e.valid_up_to();
        let line = 1 + bytes[..offset].iter().filter(|&&b| b == b'\n').count();
        GraphError::Parse {
            file: file.to_owned(),
            line,
            message: format!(
                "invalid UTF-8 at byte {offset} of the file (text files must be UTF-8)"
            ),
        }
    })
}

/// Reads a whole file as bytes; failing to open or read it is the only [`GraphError::Io`].
pub(crate) fn read_bytes(path: &std::path::Path) -> Result<Vec<u8>> {
    std::fs::read(path).map_err(|e| GraphError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_bom_and_locates_bad_bytes() {
        assert_eq!(decode("f", b"\xef\xbb\xbfab\n").unwrap(), "ab\n");
        assert_eq!(decode("f", b"").unwrap(), "");
        // a BOM that is not at the start is kept
        assert_eq!(decode("f", b"a\xef\xbb\xbf").unwrap(), "a\u{feff}");
        let e = decode("f", b"\xef\xbb\xbfa\nb\n\xffc").unwrap_err();
        assert_eq!(
            e,
            GraphError::Parse {
                file: "f".into(),
                line: 3,
                message: "invalid UTF-8 at byte 7 of the file (text files must be UTF-8)".into(),
            }
        );
        // a truncated multi-byte sequence at the very end
        let e = decode("f", b"ab\xc3").unwrap_err();
        assert!(matches!(e, GraphError::Parse { line: 1, .. }), "{e:?}");
    }
}
