//! CSV as RFC 4180 has it: fields separated by commas, a field in double quotes may hold commas,
//! quotes (doubled) and line breaks; lines end in LF or CRLF. tierproof tells an unquoted empty
//! field (NULL) from a quoted one (`""`, the empty string).

use crate::error::{Result, TierproofError};

/// Text from a file, which must be UTF-8; an error names `what`, the line and the byte.
pub fn utf8_text<'a>(what: &str, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        let column = at
            - bytes[..at]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        TierproofError::InvalidInput(format!(
            "{what} line {line} is not valid UTF-8: byte 0x{:02X} at column {column}",
            bytes[at]
        ))
    })
}

/// A field, and whether it was quoted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub text: String,
    pub quoted: bool,
}

/// A record and the line it starts on (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub line: usize,
    pub fields: Vec<Field>,
}

/// Splits `text` into records; blank lines are skipped. A quote that is never closed is an error
/// naming the line it opened on.
pub fn records(text: &str) -> Result<Vec<Record>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    let mut line = 1;
    while chars.peek().is_some() {
        let start = line;
        let mut fields = Vec::new();
        let mut field = Field {
            text: String::new(),
            quoted: false,
        };
        let mut after_quote = false;
        loop {
            match chars.next() {
                None => break,
                Some('"') if field.text.is_empty() && !field.quoted => {
                    field.quoted = true;
                    loop {
                        match chars.next() {
                            None => {
                                return Err(TierproofError::InvalidInput(format!(
                                    "CSV line {start}: a quoted field is never closed"
                                )))
                            }
                            Some('"') if chars.peek() == Some(&'"') => {
                                chars.next();
                                field.text.push('"');
                            }
                            Some('"') => break,
                            Some(c) => {
                                if c == '\n' {
                                    line += 1;
                                }
                                field.text.push(c);
                            }
                        }
                    }
                    after_quote = true;
                }
                Some(',') => {
                    fields.push(std::mem::replace(
                        &mut field,
                        Field {
                            text: String::new(),
                            quoted: false,
                        },
                    ));
                    after_quote = false;
                }
                Some('\r') if chars.peek() == Some(&'\n') => {}
                Some('\n') => {
                    line += 1;
                    break;
                }
                Some(c) if after_quote => {
                    return Err(TierproofError::InvalidInput(format!(
                        "CSV line {line}: {c:?} after a closing quote; a quoted field ends at a comma or the line's end"
                    )))
                }
                Some(c) => field.text.push(c),
            }
        }
        fields.push(field);
        let blank = fields.len() == 1 && fields[0].text.trim().is_empty() && !fields[0].quoted;
        if !blank {
            out.push(Record {
                line: start,
                fields,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_names_its_line_and_column() {
        let e = utf8_text("CSV", b"id,bal\n1,2\n3,\xff4\n").unwrap_err();
        assert_eq!(
            e.detail(),
            "CSV line 3 is not valid UTF-8: byte 0xFF at column 3"
        );
    }

    fn texts(r: &Record) -> Vec<(&str, bool)> {
        r.fields
            .iter()
            .map(|f| (f.text.as_str(), f.quoted))
            .collect()
    }

    #[test]
    fn quotes_commas_newlines_and_empty_fields() {
        let r = records("a,b,c\r\n1,\"x, \"\"y\"\"\",\n\n2,\"\",\"two\nlines\"\n3,4,5").unwrap();
        assert_eq!(r.len(), 4);
        assert_eq!(
            texts(&r[1]),
            [("1", false), ("x, \"y\"", true), ("", false)]
        );
        assert_eq!(
            texts(&r[2]),
            [("2", false), ("", true), ("two\nlines", true)]
        );
        assert_eq!(r[2].line, 4);
        assert_eq!(r[3].line, 6);
        let e = records("a\n\"open").unwrap_err().to_string();
        assert!(
            e.contains("CSV line 2: a quoted field is never closed"),
            "{e}"
        );
        let e = records("\"a\"b").unwrap_err().to_string();
        assert!(e.contains("after a closing quote"), "{e}");
    }
}
