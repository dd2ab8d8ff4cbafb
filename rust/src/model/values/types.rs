//! The column types tierproof's general table model knows, parsed from a DDL's type text (as
//! [`crate::create_table`] normalizes it) and written back as Flink SQL.

use crate::error::{Result, TierproofError};
use std::fmt;

/// A Flink SQL column type. Lengths and precisions are those Flink allows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DataType {
    Boolean,
    TinyInt,
    SmallInt,
    Int,
    BigInt,
    Float,
    Double,
    /// `DECIMAL(precision, scale)`: 1 ≤ precision ≤ 38, 0 ≤ scale ≤ precision.
    Decimal(u8, u8),
    /// `CHAR(n)`: fixed length, padded with spaces.
    Char(u32),
    /// `VARCHAR(n)`; `STRING` is `VARCHAR(2147483647)`.
    VarChar(u32),
    /// `BINARY(n)`: fixed length, padded with zero bytes.
    Binary(u32),
    /// `VARBINARY(n)`; `BYTES` is `VARBINARY(2147483647)`.
    VarBinary(u32),
    Date,
    /// `TIME(p)`, 0 ≤ p ≤ 9.
    Time(u8),
    /// `TIMESTAMP(p)` (without time zone), 0 ≤ p ≤ 9.
    Timestamp(u8),
    /// `TIMESTAMP_LTZ(p)` / `TIMESTAMP(p) WITH LOCAL TIME ZONE`: an instant, 0 ≤ p ≤ 9.
    TimestampLtz(u8),
}

/// `STRING` and `BYTES` are the longest variable types.
pub const MAX_LENGTH: u32 = i32::MAX as u32;

fn bad(text: &str, reason: &str) -> TierproofError {
    TierproofError::InvalidInput(format!("type {text:?}: {reason}"))
}

impl DataType {
    /// Parses a type as written in Flink SQL (`INT`, `DECIMAL(10, 2)`, `VARCHAR(20)`,
    /// `TIMESTAMP(3) WITH LOCAL TIME ZONE`, ...), case-insensitively, spaces free.
    pub fn parse(text: &str) -> Result<Self> {
        let norm: String = text
            .to_ascii_uppercase()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let (head, args, tail) = split_args(&norm).map_err(|r| bad(text, &r))?;
        let no_args = |t: DataType| {
            if args.is_empty() && tail.is_empty() {
                Ok(t)
            } else {
                Err(bad(text, "takes no arguments"))
            }
        };
        let one = |default: u32, min: u32, max: u32| -> Result<u32> {
            match args.as_slice() {
                [] => Ok(default),
                [n] if (min..=max).contains(n) => Ok(*n),
                [n] => Err(bad(text, &format!("{n} is outside [{min}, {max}]"))),
                _ => Err(bad(text, "takes one argument")),
            }
        };
        let precision = |default: u32| -> Result<u8> { Ok(one(default, 0, 9)? as u8) };
        match head.as_str() {
            "BOOLEAN" => no_args(DataType::Boolean),
            "TINYINT" => no_args(DataType::TinyInt),
            "SMALLINT" => no_args(DataType::SmallInt),
            "INT" | "INTEGER" => no_args(DataType::Int),
            "BIGINT" => no_args(DataType::BigInt),
            "FLOAT" => no_args(DataType::Float),
            "DOUBLE" | "DOUBLE PRECISION" => no_args(DataType::Double),
            "DECIMAL" | "DEC" | "NUMERIC" => {
                let (p, s) = match args.as_slice() {
                    [] => (10, 0),
                    [p] => (*p, 0),
                    [p, s] => (*p, *s),
                    _ => return Err(bad(text, "takes a precision and a scale")),
                };
                if !(1..=38).contains(&p) || s > p {
                    return Err(bad(
                        text,
                        "precision must be 1..38 and scale 0..precision",
                    ));
                }
                Ok(DataType::Decimal(p as u8, s as u8))
            }
            "CHAR" | "CHARACTER" => Ok(DataType::Char(one(1, 1, MAX_LENGTH)?)),
            "VARCHAR" | "CHARACTER VARYING" => Ok(DataType::VarChar(one(1, 1, MAX_LENGTH)?)),
            "STRING" => no_args(DataType::VarChar(MAX_LENGTH)),
            "BINARY" => Ok(DataType::Binary(one(1, 1, MAX_LENGTH)?)),
            "VARBINARY" => Ok(DataType::VarBinary(one(1, 1, MAX_LENGTH)?)),
            "BYTES" => no_args(DataType::VarBinary(MAX_LENGTH)),
            "DATE" => no_args(DataType::Date),
            "TIME" => {
                if !tail.is_empty() && tail != "WITHOUT TIME ZONE" {
                    return Err(bad(text, "TIME has no time zone variant"));
                }
                Ok(DataType::Time(precision(0)?))
            }
            "TIMESTAMP" => {
                let p = precision(6)?;
                match tail.as_str() {
                    "" | "WITHOUT TIME ZONE" => Ok(DataType::Timestamp(p)),
                    "WITH LOCAL TIME ZONE" => Ok(DataType::TimestampLtz(p)),
                    _ => Err(bad(text, "only TIMESTAMP and TIMESTAMP WITH LOCAL TIME ZONE")),
                }
            }
            "TIMESTAMP_LTZ" => {
                if !tail.is_empty() {
                    return Err(bad(text, "unexpected words after the type"));
                }
                Ok(DataType::TimestampLtz(precision(6)?))
            }
            _ => Err(bad(
                text,
                "not a supported type (BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, STRING, BINARY, VARBINARY, BYTES, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ)",
            )),
        }
    }
}

/// `HEAD(1, 2) TAIL` → ("HEAD", [1, 2], "TAIL"); the arguments must be numbers.
fn split_args(norm: &str) -> std::result::Result<(String, Vec<u32>, String), String> {
    let Some(open) = norm.find('(') else {
        // `DOUBLE PRECISION`, `CHARACTER VARYING` and `TIMESTAMP WITH LOCAL TIME ZONE` have spaces.
        for two_word in ["DOUBLE PRECISION", "CHARACTER VARYING"] {
            if norm == two_word {
                return Ok((norm.to_string(), Vec::new(), String::new()));
            }
        }
        let (head, tail) = norm.split_once(' ').unwrap_or((norm, ""));
        return Ok((head.to_string(), Vec::new(), tail.to_string()));
    };
    let close = norm[open..]
        .find(')')
        .map(|c| open + c)
        .ok_or("an argument list is not closed")?;
    let args = norm[open + 1..close]
        .split(',')
        .map(|a| {
            a.trim()
                .parse::<u32>()
                .map_err(|_| format!("{a:?} is not a length or precision"))
        })
        .collect::<std::result::Result<Vec<_>, _>>()?;
    Ok((
        norm[..open].trim().to_string(),
        args,
        norm[close + 1..].trim().to_string(),
    ))
}

impl fmt::Display for DataType {
    /// The type as Flink SQL.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataType::Boolean => write!(f, "BOOLEAN"),
            DataType::TinyInt => write!(f, "TINYINT"),
            DataType::SmallInt => write!(f, "SMALLINT"),
            DataType::Int => write!(f, "INT"),
            DataType::BigInt => write!(f, "BIGINT"),
            DataType::Float => write!(f, "FLOAT"),
            DataType::Double => write!(f, "DOUBLE"),
            DataType::Decimal(p, s) => write!(f, "DECIMAL({p}, {s})"),
            DataType::Char(n) => write!(f, "CHAR({n})"),
            DataType::VarChar(MAX_LENGTH) => write!(f, "STRING"),
            DataType::VarChar(n) => write!(f, "VARCHAR({n})"),
            DataType::Binary(n) => write!(f, "BINARY({n})"),
            DataType::VarBinary(MAX_LENGTH) => write!(f, "BYTES"),
            DataType::VarBinary(n) => write!(f, "VARBINARY({n})"),
            DataType::Date => write!(f, "DATE"),
            DataType::Time(p) => write!(f, "TIME({p})"),
            DataType::Timestamp(p) => write!(f, "TIMESTAMP({p})"),
            DataType::TimestampLtz(p) => write!(f, "TIMESTAMP_LTZ({p})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_parses_and_prints_back() {
        for (text, printed) in [
            ("boolean", "BOOLEAN"),
            ("TINYINT", "TINYINT"),
            ("SMALLINT", "SMALLINT"),
            ("INTEGER", "INT"),
            ("BIGINT", "BIGINT"),
            ("FLOAT", "FLOAT"),
            ("DOUBLE PRECISION", "DOUBLE"),
            ("DECIMAL", "DECIMAL(10, 0)"),
            ("DECIMAL(38, 18)", "DECIMAL(38, 18)"),
            ("CHAR(3)", "CHAR(3)"),
            ("VARCHAR(20)", "VARCHAR(20)"),
            ("STRING", "STRING"),
            ("BINARY(4)", "BINARY(4)"),
            ("VARBINARY(9)", "VARBINARY(9)"),
            ("BYTES", "BYTES"),
            ("DATE", "DATE"),
            ("TIME", "TIME(0)"),
            ("TIME(3)", "TIME(3)"),
            ("TIMESTAMP", "TIMESTAMP(6)"),
            ("TIMESTAMP(9) WITHOUT TIME ZONE", "TIMESTAMP(9)"),
            ("TIMESTAMP(3) WITH LOCAL TIME ZONE", "TIMESTAMP_LTZ(3)"),
            ("TIMESTAMP_LTZ(0)", "TIMESTAMP_LTZ(0)"),
        ] {
            let t = DataType::parse(text).unwrap();
            assert_eq!(t.to_string(), printed, "{text}");
            assert_eq!(DataType::parse(printed).unwrap(), t, "{printed}");
        }
    }

    #[test]
    fn bad_types_are_refused_naming_them() {
        for (text, reason) in [
            ("DECIMAL(39, 2)", "precision must be 1..38"),
            ("DECIMAL(5, 6)", "scale 0..precision"),
            ("TIMESTAMP(10)", "10 is outside [0, 9]"),
            ("INT(3)", "takes no arguments"),
            ("ARRAY<INT>", "not a supported type"),
            ("VARCHAR(0)", "0 is outside"),
            ("VARCHAR(x)", "\"X\" is not a length"),
        ] {
            let e = DataType::parse(text).unwrap_err().to_string();
            assert!(
                e.contains(&format!("{text:?}")) && e.contains(reason),
                "{text}: {e}"
            );
        }
    }
}
