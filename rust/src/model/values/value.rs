//! Values of the general table model: parsed from text (a CSV cell, or a value a reader returned,
//! written as text by the harness), compared by a canonical text, and written as Flink SQL
//! literals that round-trip through Flink and Paimon.
//!
//! Deliberate choices, documented for users:
//! - FLOAT/DOUBLE: every NaN is one value, `NaN`; `-0.0` and `0.0` are different values (Paimon
//!   stores the IEEE bits); the canonical text is the shortest that parses back to the same bits.
//! - DECIMAL: the text must fit the type exactly (no silent rounding); canonical text has exactly
//!   `scale` fraction digits. Literals cast from a string: Calcite refuses numeric literals of
//!   more than 19 digits.
//! - CHAR(n) is padded with spaces to n, BINARY(n) with zero bytes, as SQL defines them.
//! - TIME and TIMESTAMP keep the type's precision (finer digits are refused, not rounded).
//! - TIMESTAMP_LTZ is an instant; its text is UTC (optionally with a trailing `Z`), and the
//!   harness runs Flink sessions in UTC so the literal means the same instant.

use crate::error::{Result, TierproofError};
use crate::ident::quote_literal;
use crate::model::values::civil::{civil_from_days, days_from_civil};
use crate::model::values::types::DataType;
use std::fmt::Write;

/// A non-NULL value, or NULL.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    /// TINYINT to BIGINT, range-checked by the type.
    Int(i64),
    /// FLOAT (holding an `f32` exactly) or DOUBLE.
    Float(f64),
    Decimal {
        unscaled: i128,
        scale: u8,
    },
    /// CHAR (padded) and VARCHAR.
    Text(String),
    /// BINARY (padded) and VARBINARY.
    Bytes(Vec<u8>),
    /// Days since 1970-01-01.
    Date(i32),
    /// Nanoseconds since midnight.
    Time(u64),
    /// A local date-time (TIMESTAMP) or an instant (TIMESTAMP_LTZ): seconds since 1970-01-01
    /// 00:00 (UTC for an instant) and nanoseconds.
    Timestamp(i64, u32),
}

fn bad(ty: DataType, text: &str, reason: &str) -> TierproofError {
    TierproofError::InvalidInput(format!("{ty} value {text:?}: {reason}"))
}

/// The smallest and largest value of an integer type (BIGINT's for any other).
pub(crate) fn int_bounds(ty: DataType) -> (i128, i128) {
    match ty {
        DataType::TinyInt => (i8::MIN as i128, i8::MAX as i128),
        DataType::SmallInt => (i16::MIN as i128, i16::MAX as i128),
        DataType::Int => (i32::MIN as i128, i32::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    }
}

impl Value {
    /// Parses the text of a non-NULL value of type `ty`.
    pub fn parse(ty: DataType, text: &str) -> Result<Value> {
        let t = text;
        match ty {
            DataType::Boolean => match t.trim().to_ascii_lowercase().as_str() {
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                _ => Err(bad(ty, t, "not true or false")),
            },
            DataType::TinyInt | DataType::SmallInt | DataType::Int | DataType::BigInt => {
                let v: i128 = t.trim().parse().map_err(|_| bad(ty, t, "not an integer"))?;
                let (min, max) = int_bounds(ty);
                if v < min || v > max {
                    return Err(bad(ty, t, &format!("outside [{min}, {max}]")));
                }
                Ok(Value::Int(v as i64))
            }
            DataType::Float => {
                let v: f32 = t.trim().parse().map_err(|_| bad(ty, t, "not a number"))?;
                Ok(Value::Float(f64::from(v)))
            }
            DataType::Double => {
                let v: f64 = t.trim().parse().map_err(|_| bad(ty, t, "not a number"))?;
                Ok(Value::Float(v))
            }
            DataType::Decimal(p, s) => parse_decimal(t.trim(), p, s).map_err(|r| bad(ty, t, &r)),
            DataType::Char(n) | DataType::VarChar(n) => {
                let len = t.chars().count();
                if len > n as usize {
                    return Err(bad(ty, t, &format!("{len} characters; at most {n} fit")));
                }
                Ok(Value::Text(t.to_string()))
            }
            DataType::Binary(n) | DataType::VarBinary(n) => {
                let bytes = parse_hex(t.trim()).map_err(|r| bad(ty, t, &r))?;
                if bytes.len() > n as usize {
                    return Err(bad(
                        ty,
                        t,
                        &format!("{} bytes; at most {n} fit", bytes.len()),
                    ));
                }
                Ok(Value::Bytes(bytes))
            }
            DataType::Date => parse_date(t.trim())
                .map(Value::Date)
                .map_err(|r| bad(ty, t, &r)),
            DataType::Time(p) => {
                let nanos = parse_time(t.trim()).map_err(|r| bad(ty, t, &r))?;
                check_precision(nanos % 1_000_000_000, p).map_err(|r| bad(ty, t, &r))?;
                Ok(Value::Time(nanos))
            }
            DataType::Timestamp(p) | DataType::TimestampLtz(p) => {
                let mut s = t.trim();
                if matches!(ty, DataType::TimestampLtz(_)) {
                    s = s.strip_suffix('Z').unwrap_or(s);
                }
                let (date, time) = s
                    .split_once([' ', 'T'])
                    .ok_or_else(|| bad(ty, t, "expected `YYYY-MM-DD HH:MM:SS[.fraction]`"))?;
                let days = parse_date(date).map_err(|r| bad(ty, t, &r))?;
                let nanos = parse_time(time).map_err(|r| bad(ty, t, &r))?;
                check_precision(nanos % 1_000_000_000, p).map_err(|r| bad(ty, t, &r))?;
                Ok(Value::Timestamp(
                    i64::from(days) * 86_400 + (nanos / 1_000_000_000) as i64,
                    (nanos % 1_000_000_000) as u32,
                ))
            }
        }
    }

    /// The text two values are compared by: equal texts, equal values (see the module docs).
    pub fn canonical(&self, ty: DataType) -> String {
        match (self, ty) {
            (Value::Null, _) => "NULL".to_string(),
            (Value::Bool(b), _) => b.to_string(),
            (Value::Int(v), _) => v.to_string(),
            (Value::Float(v), DataType::Float) => float_text(format!("{:?}", *v as f32)),
            (Value::Float(v), _) => float_text(format!("{v:?}")),
            (Value::Decimal { unscaled, scale }, _) => decimal_text(*unscaled, *scale),
            (Value::Text(s), DataType::Char(n)) => {
                let pad = (n as usize).saturating_sub(s.chars().count());
                format!("{s}{}", " ".repeat(pad))
            }
            (Value::Text(s), _) => s.clone(),
            (Value::Bytes(b), DataType::Binary(n)) => {
                let mut padded = b.clone();
                padded.resize((n as usize).max(b.len()), 0);
                hex(&padded)
            }
            (Value::Bytes(b), _) => hex(b),
            (Value::Date(d), _) => date_text(*d),
            (Value::Time(nanos), DataType::Time(p)) => time_text(*nanos, p),
            (Value::Timestamp(secs, nanos), DataType::TimestampLtz(p)) => {
                format!("{}Z", timestamp_text(*secs, *nanos, p))
            }
            (Value::Timestamp(secs, nanos), DataType::Timestamp(p)) => {
                timestamp_text(*secs, *nanos, p)
            }
            (v, t) => format!("{v:?} as {t}"),
        }
    }

    /// Appends [`Self::canonical`]'s text to `out`: the common values without a string of their own.
    pub fn write_canonical(&self, ty: DataType, out: &mut String) {
        match (self, ty) {
            (Value::Int(v), _) => {
                let _ = write!(out, "{v}");
            }
            (Value::Bool(b), _) => out.push_str(if *b { "true" } else { "false" }),
            (Value::Text(s), t) if !matches!(t, DataType::Char(_)) => out.push_str(s),
            _ => out.push_str(&self.canonical(ty)),
        }
    }

    /// A Flink SQL expression of exactly type `ty` for this value: every literal is cast to the
    /// column's type, so the rows of one `VALUES` never widen to a common type (`'ab'` and
    /// `'abcd'` would make `VARCHAR(4)`, which Flink does not cast to `CHAR(4)` on insert).
    ///
    /// An INT is written bare: Flink types an integer literal in INT's range (its minimum
    /// included) as INT, and the exercise's statements write `VALUES (1, 10)`.
    ///
    /// Floating-point values that Flink 1.20 cannot write as constants are refused, never written
    /// as something else: see [`float_constant_limit`] (and docs/findings/).
    pub fn sql_literal(&self, ty: DataType) -> Result<String> {
        if let (Value::Int(v), DataType::Int) = (self, ty) {
            return Ok(v.to_string());
        }
        let bare = match (self, ty) {
            (Value::Null, _) => "NULL".to_string(),
            (Value::Bool(b), _) => (if *b { "TRUE" } else { "FALSE" }).to_string(),
            (Value::Int(v), _) => v.to_string(),
            (Value::Float(v), t) => {
                if let Some(why) = float_constant_limit(*v, t) {
                    return Err(TierproofError::InvalidInput(format!(
                        "{t} value {}: {why}; write it through another producer",
                        self.canonical(t)
                    )));
                }
                quote_literal(&self.canonical(t))
            }
            // A string: Calcite refuses numeric literals whose digits do not fit a BIGINT.
            (Value::Decimal { .. }, t) => quote_literal(&self.canonical(t)),
            (Value::Text(s), _) => quote_literal(s),
            (Value::Bytes(b), _) => format!("X'{}'", hex(b).to_ascii_uppercase()),
            (Value::Date(_), t) => format!("DATE '{}'", self.canonical(t)),
            (Value::Time(_), t) => format!("TIME '{}'", self.canonical(t)),
            (Value::Timestamp(secs, nanos), DataType::TimestampLtz(p)) => {
                format!("TIMESTAMP '{}'", timestamp_text(*secs, *nanos, p))
            }
            (Value::Timestamp(..), t) => format!("TIMESTAMP '{}'", self.canonical(t)),
        };
        Ok(format!("CAST({bare} AS {ty})"))
    }
}

/// Why Flink 1.20 cannot write `v` as a constant of type `ty`, if it cannot. Its planner folds a
/// constant `CAST('…' AS DOUBLE)` into a Calcite literal held as a `BigDecimal`: NaN and the
/// infinities fail planning (`Infinite or NaN`), `-0.0` becomes `0.0` (a BigDecimal has no
/// negative zero), and a FLOAT keeps 7 significant digits (Calcite's REAL precision), so
/// `3.4028235e38` is written as `3.402823e38`. Found by the type round-trip test.
pub fn float_constant_limit(v: f64, ty: DataType) -> Option<String> {
    if !v.is_finite() {
        return Some("Flink 1.20 cannot write NaN or an infinity as a SQL constant (its planner folds it through BigDecimal and fails)".to_string());
    }
    if v == 0.0 && v.is_sign_negative() {
        return Some("Flink 1.20 writes the SQL constant -0.0 as 0.0 (its planner folds it through BigDecimal, which has no negative zero)".to_string());
    }
    if ty == DataType::Float {
        let f = v as f32;
        let seven: f32 = format!("{f:.6e}").parse().unwrap_or(f);
        if seven.to_bits() != f.to_bits() {
            return Some(format!(
                "Flink 1.20 keeps 7 significant digits of a FLOAT constant and would write {}",
                float_text(format!("{seven:?}"))
            ));
        }
    }
    None
}

fn float_text(debug: String) -> String {
    match debug.as_str() {
        "inf" => "Infinity".to_string(),
        "-inf" => "-Infinity".to_string(),
        _ => debug,
    }
}

fn parse_decimal(t: &str, p: u8, s: u8) -> std::result::Result<Value, String> {
    let (negative, digits) = match t.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() && frac.is_empty()
        || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
    {
        return Err("not a decimal number".to_string());
    }
    let frac_kept = frac.trim_end_matches('0');
    if frac_kept.len() > s as usize {
        return Err(format!(
            "{} fraction digits; DECIMAL({p}, {s}) keeps {s} (tierproof never rounds)",
            frac_kept.len()
        ));
    }
    let int_digits = int.trim_start_matches('0');
    if int_digits.len() > (p - s) as usize {
        return Err(format!(
            "{} integer digits; DECIMAL({p}, {s}) holds {}",
            int_digits.len(),
            p - s
        ));
    }
    let mut unscaled: i128 = 0;
    for c in int_digits.chars().chain(frac_kept.chars()) {
        unscaled = unscaled * 10 + i128::from(c as u8 - b'0');
    }
    for _ in frac_kept.len()..s as usize {
        unscaled *= 10;
    }
    Ok(Value::Decimal {
        unscaled: if negative { -unscaled } else { unscaled },
        scale: s,
    })
}

fn decimal_text(unscaled: i128, scale: u8) -> String {
    let digits = unscaled.unsigned_abs().to_string();
    let scale = scale as usize;
    let padded = format!("{digits:0>width$}", width = scale + 1);
    let (int, frac) = padded.split_at(padded.len() - scale);
    let sign = if unscaled < 0 { "-" } else { "" };
    if scale == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

fn parse_hex(t: &str) -> std::result::Result<Vec<u8>, String> {
    let t = t.strip_prefix("0x").unwrap_or(t);
    if !t.len().is_multiple_of(2) {
        return Err("hex needs an even number of digits".to_string());
    }
    (0..t.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&t[i..i + 2], 16).map_err(|_| "not hex".to_string()))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn number(t: &str, what: &str, max: u32) -> std::result::Result<u32, String> {
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("the {what} {t:?} is not a number"));
    }
    let v: u32 = t
        .parse()
        .map_err(|_| format!("the {what} {t:?} is too large"))?;
    if v > max {
        return Err(format!("the {what} {v} is above {max}"));
    }
    Ok(v)
}

/// `YYYY-MM-DD`, years 0000 to 9999 (Flink's DATE range), a real day of the month.
fn parse_date(t: &str) -> std::result::Result<i32, String> {
    let parts: Vec<&str> = t.split('-').collect();
    if parts.len() != 3 || parts[0].len() != 4 {
        return Err("expected a date `YYYY-MM-DD` with a four-digit year".to_string());
    }
    let y = number(parts[0], "year", 9999)? as i32;
    let m = number(parts[1], "month", 12)?;
    let d = number(parts[2], "day", 31)?;
    if m == 0 || d == 0 || d > days_in_month(y, m) {
        return Err(format!("{y:04}-{m:02}-{d:02} is not a day of the calendar"));
    }
    Ok(days_from_civil(y, m, d))
}

fn days_in_month(y: i32, m: u32) -> u32 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// `HH:MM[:SS[.fraction]]` (up to nanoseconds), as nanoseconds since midnight.
fn parse_time(t: &str) -> std::result::Result<u64, String> {
    let (hms, frac) = t.split_once('.').unwrap_or((t, ""));
    let parts: Vec<&str> = hms.split(':').collect();
    if !(2..=3).contains(&parts.len()) || frac.len() > 9 || (!frac.is_empty() && parts.len() < 3) {
        return Err(
            "expected a time `HH:MM:SS[.fraction]` (at most nine fraction digits)".to_string(),
        );
    }
    let h = u64::from(number(parts[0], "hour", 23)?);
    let m = u64::from(number(parts[1], "minute", 59)?);
    let s = match parts.get(2) {
        Some(s) => u64::from(number(s, "second", 59)?),
        None => 0,
    };
    let nanos = if frac.is_empty() {
        0
    } else {
        u64::from(number(frac, "fraction", 999_999_999)?) * 10u64.pow(9 - frac.len() as u32)
    };
    Ok(((h * 60 + m) * 60 + s) * 1_000_000_000 + nanos)
}

fn check_precision(nanos: u64, p: u8) -> std::result::Result<(), String> {
    let unit = 10u64.pow(9 - u32::from(p));
    if !nanos.is_multiple_of(unit) {
        return Err(format!(
            "more fraction digits than the type's precision {p} (tierproof never rounds)"
        ));
    }
    Ok(())
}

fn date_text(days: i32) -> String {
    let (y, m, d) = civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

fn time_text(nanos: u64, p: u8) -> String {
    let secs = nanos / 1_000_000_000;
    let frac = nanos % 1_000_000_000;
    let mut out = format!("{:02}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if p > 0 {
        let digits = format!("{frac:09}");
        out.push('.');
        out.push_str(&digits[..p as usize]);
    }
    out
}

fn timestamp_text(secs: i64, nanos: u32, p: u8) -> String {
    let days = secs.div_euclid(86_400);
    let in_day = secs.rem_euclid(86_400) as u64;
    format!(
        "{} {}",
        date_text(days as i32),
        time_text(in_day * 1_000_000_000 + u64::from(nanos), p)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(ty: &str, text: &str) -> String {
        let t = DataType::parse(ty).unwrap();
        Value::parse(t, text).unwrap().canonical(t)
    }

    fn literal(ty: &str, text: &str) -> String {
        let t = DataType::parse(ty).unwrap();
        Value::parse(t, text).unwrap().sql_literal(t).unwrap()
    }

    fn refused(ty: &str, text: &str) -> String {
        let t = DataType::parse(ty).unwrap();
        Value::parse(t, text).unwrap_err().to_string()
    }

    #[test]
    fn integers_keep_their_range() {
        assert_eq!(canon("TINYINT", "-128"), "-128");
        assert!(refused("TINYINT", "128").contains("outside [-128, 127]"));
        assert_eq!(
            literal("BIGINT", "-9223372036854775808"),
            "CAST(-9223372036854775808 AS BIGINT)"
        );
        assert_eq!(literal("INT", "-2147483648"), "-2147483648");
        assert!(refused("BIGINT", "9223372036854775808").contains("outside"));
        assert!(refused("INT", "1.5").contains("not an integer"));
    }

    #[test]
    fn floats_keep_nan_infinities_and_negative_zero() {
        assert_eq!(canon("DOUBLE", "NaN"), "NaN");
        assert_eq!(canon("DOUBLE", "-Infinity"), "-Infinity");
        assert_eq!(canon("DOUBLE", "-0.0"), "-0.0");
        assert_ne!(canon("DOUBLE", "-0.0"), canon("DOUBLE", "0.0"));
        // What Java prints parses back to the same value.
        assert_eq!(canon("DOUBLE", "1.0E-7"), canon("DOUBLE", "0.0000001"));
        assert_eq!(canon("FLOAT", "0.1"), "0.1");
        assert_eq!(canon("FLOAT", "3.4028235E38"), "3.4028235e38");
        assert_eq!(literal("DOUBLE", "4.9E-324"), "CAST('5e-324' AS DOUBLE)");
        assert_eq!(
            literal("FLOAT", "3.402823E38"),
            "CAST('3.402823e38' AS FLOAT)"
        );
        for (ty, text, why) in [
            ("DOUBLE", "NaN", "cannot write NaN or an infinity"),
            ("FLOAT", "-Infinity", "cannot write NaN or an infinity"),
            ("DOUBLE", "-0.0", "writes the SQL constant -0.0 as 0.0"),
            ("FLOAT", "3.4028235E38", "would write 3.402823e38"),
        ] {
            let t = DataType::parse(ty).unwrap();
            let e = Value::parse(t, text)
                .unwrap()
                .sql_literal(t)
                .unwrap_err()
                .to_string();
            assert!(e.contains(why), "{ty} {text}: {e}");
        }
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(canon("DECIMAL(10, 2)", "1.5"), "1.50");
        assert_eq!(canon("DECIMAL(10, 2)", "-0.05"), "-0.05");
        assert_eq!(canon("DECIMAL(5, 0)", "00042"), "42");
        let max = format!("{}.{}", "9".repeat(20), "9".repeat(18));
        assert_eq!(canon("DECIMAL(38, 18)", &max), max);
        assert_eq!(
            canon("DECIMAL(38, 18)", &format!("-{max}")),
            format!("-{max}")
        );
        assert!(refused("DECIMAL(10, 2)", "1.005").contains("never rounds"));
        assert!(refused("DECIMAL(4, 2)", "100").contains("3 integer digits"));
        assert_eq!(
            literal("DECIMAL(10, 2)", "7"),
            "CAST('7.00' AS DECIMAL(10, 2))"
        );
    }

    #[test]
    fn strings_and_bytes() {
        assert_eq!(canon("CHAR(4)", "ab"), "ab  ");
        assert_eq!(canon("STRING", ""), "");
        assert_eq!(canon("STRING", "Ünïcødé 表 😀"), "Ünïcødé 表 😀");
        assert!(refused("VARCHAR(2)", "abc").contains("3 characters; at most 2"));
        assert_eq!(literal("STRING", "it's"), "CAST('it''s' AS STRING)");
        assert_eq!(canon("BINARY(3)", "0a"), "0a0000");
        assert_eq!(literal("BYTES", "00ff"), "CAST(X'00FF' AS BYTES)");
        assert_eq!(literal("BYTES", ""), "CAST(X'' AS BYTES)");
        assert!(refused("BYTES", "abc").contains("even number"));
    }

    #[test]
    fn dates_times_and_instants() {
        assert_eq!(canon("DATE", "2024-02-29"), "2024-02-29");
        assert!(refused("DATE", "2023-02-29").contains("not a day of the calendar"));
        assert_eq!(canon("DATE", "0001-01-01"), "0001-01-01");
        assert_eq!(canon("DATE", "9999-12-31"), "9999-12-31");
        assert_eq!(canon("DATE", "1969-12-31"), "1969-12-31");
        assert_eq!(canon("TIME(3)", "23:59:59.999"), "23:59:59.999");
        assert_eq!(canon("TIME(3)", "12:34"), "12:34:00.000");
        assert!(refused("TIME(0)", "12:00:00.5").contains("precision 0"));
        assert_eq!(
            canon("TIMESTAMP(9)", "1969-12-31T23:59:59.123456789"),
            "1969-12-31 23:59:59.123456789"
        );
        assert_eq!(
            canon("TIMESTAMP(3)", "2024-03-31 02:30"),
            "2024-03-31 02:30:00.000"
        );
        assert_eq!(
            canon("TIMESTAMP_LTZ(3)", "2024-10-27T01:30:00.5Z"),
            "2024-10-27 01:30:00.500Z"
        );
        assert_eq!(
            literal("TIMESTAMP_LTZ(0)", "1970-01-01 00:00:00"),
            "CAST(TIMESTAMP '1970-01-01 00:00:00' AS TIMESTAMP_LTZ(0))"
        );
        assert_eq!(
            literal("DATE", "2000-01-01"),
            "CAST(DATE '2000-01-01' AS DATE)"
        );
        assert_eq!(
            literal("TIMESTAMP(6)", "2000-01-01 00:00:00.000001"),
            "CAST(TIMESTAMP '2000-01-01 00:00:00.000001' AS TIMESTAMP(6))"
        );
        assert_eq!(
            Value::Null.sql_literal(DataType::Date).unwrap(),
            "CAST(NULL AS DATE)"
        );
    }
}
