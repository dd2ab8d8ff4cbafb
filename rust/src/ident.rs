//! Names and literals in Flink SQL: validated, then quoted so that no input can leave its quotes.
//!
//! A name is also a path: Paimon's filesystem catalog keeps database `d` at `<warehouse>/d.db` and
//! table `t` at `<warehouse>/d.db/t`, built with its own `Path(parent, child)`, which reads a `:`
//! before any `/` as a URI scheme (so `file:x` replaces the parent instead of joining it) and
//! decodes `%2F` to `/`. So no name part may hold a character that makes it anything but one
//! directory name below its parent: see [`PATH_UNSAFE`].

use crate::error::{Result, TierproofError};

/// Longest accepted identifier part, in bytes (Flink/Paimon keep names well below this).
pub const MAX_NAME_BYTES: usize = 255;

/// Characters refused in any name part, each with the reason a user sees.
pub const PATH_UNSAFE: &[(char, &str)] = &[
    ('/', "a path separator would put the table in another directory"),
    (
        '\\',
        "a path separator (on Windows, and to Hadoop paths) would put the table in another directory",
    ),
    (
        ':',
        "Paimon's paths read `scheme:` before a name, which would replace the warehouse path",
    ),
    (
        '%',
        "Paimon's paths decode %-escapes such as %2F into `/`, which would leave the warehouse",
    ),
    (
        '$',
        "Paimon reserves `$` for system tables and branches (`t$snapshots`)",
    ),
    ('?', "a URI query marker is not a directory name"),
    ('#', "a URI fragment marker is not a directory name"),
];

/// A table path of one to three parts: `table`, `db.table` or `catalog.db.table`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TablePath {
    parts: Vec<String>,
}

impl TablePath {
    /// Parses a dotted path. A part that starts with a backtick is a quoted part (a backtick
    /// inside doubled) and may hold dots; any other part is taken as it is, backticks included,
    /// without trimming.
    pub fn parse(text: &str) -> Result<Self> {
        let parts = split_parts(text)?;
        if parts.len() > 3 {
            return Err(invalid(
                text,
                "a path has at most three parts: catalog.db.table",
            ));
        }
        for part in &parts {
            validate_part(text, part)?;
        }
        Ok(TablePath { parts })
    }

    /// A path from parts given one by one (no dots parsed), each checked like a parsed part.
    pub fn from_parts(parts: &[String]) -> Result<Self> {
        let whole = parts.join(".");
        if parts.is_empty() || parts.len() > 3 {
            return Err(invalid(&whole, "a path has one to three parts"));
        }
        for part in parts {
            validate_part(&whole, part)?;
        }
        Ok(TablePath {
            parts: parts.to_vec(),
        })
    }

    /// The database part of a `db.table` or `catalog.db.table` path.
    pub fn database(&self) -> Option<&str> {
        (self.parts.len() >= 2).then(|| self.parts[self.parts.len() - 2].as_str())
    }

    pub fn parts(&self) -> &[String] {
        &self.parts
    }

    /// The last part: the table's own name.
    pub fn table(&self) -> &str {
        self.parts.last().map(String::as_str).unwrap_or_default()
    }

    /// The path quoted part by part, ready to splice into SQL.
    pub fn quoted(&self) -> String {
        self.parts
            .iter()
            .map(|p| quote_ident(p))
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// Backtick-quotes one identifier part, doubling any backtick inside.
pub fn quote_ident(part: &str) -> String {
    format!("`{}`", part.replace('`', "``"))
}

/// Single-quotes a string literal, doubling any quote inside.
pub fn quote_literal(value: &str) -> String {
    format!("'{}'", value.replace('\'', "''"))
}

/// Checks a column or option-key name with the same rules as a path part.
pub fn validate_name(name: &str) -> Result<()> {
    validate_part(name, name)
}

fn validate_part(whole: &str, part: &str) -> Result<()> {
    if part.is_empty() {
        return Err(invalid(whole, "a name part is empty"));
    }
    if part.len() > MAX_NAME_BYTES {
        return Err(invalid(
            whole,
            &format!(
                "a name part is {} bytes long; at most {MAX_NAME_BYTES} are allowed",
                part.len()
            ),
        ));
    }
    if let Some(c) = part.chars().find(|c| c.is_control()) {
        return Err(invalid(
            whole,
            &format!("control character U+{:04X} is not allowed", c as u32),
        ));
    }
    if let Some((c, why)) = PATH_UNSAFE.iter().find(|(c, _)| part.contains(*c)) {
        return Err(invalid(
            whole,
            &format!("{c:?} is not allowed in a name: {why}"),
        ));
    }
    if part.starts_with('.') {
        return Err(invalid(
            whole,
            "a name may not start with '.': `.` and `..` name the warehouse or its parent, and other dot names are hidden files",
        ));
    }
    if part.contains("..") {
        return Err(invalid(
            whole,
            "'..' is not allowed in a name: it names a parent directory",
        ));
    }
    Ok(())
}

/// Checks that a database name, stored as the directory `<name>.db`, fits a file name.
pub fn validate_database_name(name: &str) -> Result<()> {
    validate_part(name, name)?;
    let limit = MAX_NAME_BYTES - DATABASE_SUFFIX.len();
    if name.len() > limit {
        return Err(invalid(
            name,
            &format!(
                "a database name is {} bytes long; at most {limit} are allowed, as Paimon stores it as the directory `<name>{DATABASE_SUFFIX}` (255 bytes at most)",
                name.len()
            ),
        ));
    }
    Ok(())
}

/// Longest database or table name Fluss accepts.
pub const FLUSS_MAX_NAME_CHARS: usize = 200;

/// Fluss's own rules for database and table names (its `TablePath`): ASCII letters, digits, `_`
/// and `-`, at most 200, no leading `__` (reserved for Fluss's internal tables).
pub fn validate_fluss_name(name: &str) -> Result<()> {
    validate_part(name, name)?;
    if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
    {
        return Err(invalid(
            name,
            &format!(
                "{c:?} is not allowed: Fluss names hold only ASCII letters, digits, '_' and '-'"
            ),
        ));
    }
    if name.len() > FLUSS_MAX_NAME_CHARS {
        return Err(invalid(
            name,
            &format!(
                "Fluss names are at most {FLUSS_MAX_NAME_CHARS} characters; this one has {}",
                name.len()
            ),
        ));
    }
    if name.starts_with("__") {
        return Err(invalid(
            name,
            "a leading '__' is reserved for Fluss's internal tables",
        ));
    }
    Ok(())
}

/// What Paimon's filesystem catalog appends to a database's directory name.
pub const DATABASE_SUFFIX: &str = ".db";

fn split_parts(text: &str) -> Result<Vec<String>> {
    let mut parts = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        let mut part = String::new();
        if chars.peek() == Some(&'`') {
            chars.next();
            loop {
                match chars.next() {
                    Some('`') if chars.peek() == Some(&'`') => {
                        chars.next();
                        part.push('`');
                    }
                    Some('`') => break,
                    Some(c) => part.push(c),
                    None => return Err(invalid(text, "a backtick-quoted part is not closed")),
                }
            }
            match chars.peek() {
                None | Some('.') => {}
                Some(_) => {
                    return Err(invalid(
                        text,
                        "a quoted part must be followed by '.' or the end",
                    ))
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == '.' {
                    break;
                }
                part.push(c);
                chars.next();
            }
        }
        parts.push(part);
        match chars.next() {
            Some('.') => continue,
            None => return Ok(parts),
            Some(_) => unreachable!("a part ends at '.' or at the end"),
        }
    }
}

fn invalid(name: &str, reason: &str) -> TierproofError {
    TierproofError::InvalidName {
        name: name.to_string(),
        reason: reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_dotted_paths() {
        assert_eq!(TablePath::parse("t").unwrap().quoted(), "`t`");
        assert_eq!(
            TablePath::parse("cat.db.t").unwrap().quoted(),
            "`cat`.`db`.`t`"
        );
    }

    #[test]
    fn quoted_part_keeps_dot_and_backtick() {
        let p = TablePath::parse("db.`a.b``c`").unwrap();
        assert_eq!(p.parts(), ["db", "a.b`c"]);
        assert_eq!(p.quoted(), "`db`.`a.b``c`");
    }

    #[test]
    fn refuses_bad_names_and_names_them() {
        for bad in ["", "a..b", "a.b.c.d", "x\ny", "`open", "`a`b"] {
            let err = TablePath::parse(bad).unwrap_err();
            assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
        }
        let long = "x".repeat(256);
        assert!(TablePath::parse(&long)
            .unwrap_err()
            .to_string()
            .contains("256 bytes"));
        assert!(TablePath::parse(&"x".repeat(255)).is_ok());
    }

    /// One test per class of character that could turn a name into a path outside the warehouse.
    #[test]
    fn names_that_would_leave_the_warehouse_are_refused() {
        let cases = [
            ("/tmp/x", "'/' is not allowed"),
            ("sub/dir", "'/' is not allowed"),
            ("a\\b", "'\\\\' is not allowed"),
            ("file:x", "':' is not allowed"),
            ("a%2F..%2Fb", "'%' is not allowed"),
            ("t$snapshots", "'$' is not allowed"),
            ("a?b", "'?' is not allowed"),
            ("a#b", "'#' is not allowed"),
            ("`..`", "may not start with '.'"),
            ("`.`", "may not start with '.'"),
            ("`.hidden`", "may not start with '.'"),
            ("`a..b`", "'..' is not allowed"),
        ];
        for (name, reason) in cases {
            let err = TablePath::parse(name).unwrap_err().to_string();
            assert!(err.contains(reason), "{name}: {err}");
            assert!(err.starts_with("invalid name"), "{err}");
        }
        // The same rule holds for every part, database included.
        assert!(TablePath::parse("`../x`.t").is_err());
        assert!(TablePath::parse("db.`a/b`").is_err());
        // Dots between parts are separators, not part of a name.
        assert_eq!(TablePath::parse("db.t").unwrap().parts(), ["db", "t"]);
    }

    #[test]
    fn a_database_name_leaves_room_for_its_suffix() {
        assert!(validate_database_name(&"d".repeat(252)).is_ok());
        let err = validate_database_name(&"d".repeat(253))
            .unwrap_err()
            .to_string();
        assert!(err.contains("at most 252"), "{err}");
    }

    #[test]
    fn a_backtick_inside_a_plain_name_is_kept_and_doubled() {
        let p = TablePath::parse("t`; DROP TABLE x; --").unwrap();
        assert_eq!(p.parts(), ["t`; DROP TABLE x; --"]);
        assert_eq!(p.quoted(), "`t``; DROP TABLE x; --`");
    }

    #[test]
    fn literal_quotes_are_doubled() {
        assert_eq!(quote_literal("it's"), "'it''s'");
    }
}
