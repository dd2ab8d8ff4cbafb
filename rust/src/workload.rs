//! Where upserts come from: a CSV file, text values checked against INT, or a seeded random
//! generator (deterministic for a seed, the same on every face).

use crate::error::{Result, TierproofError};
use crate::row::Row;

/// Parses `text` as an INT, naming `what` (e.g. "upsert #3 id") in any error.
pub fn parse_int(what: &str, text: &str) -> Result<i32> {
    let t = text.trim();
    let wide: i128 = t.parse().map_err(|_| TierproofError::NotAnInteger {
        what: what.to_string(),
        value: text.to_string(),
    })?;
    check_int(what, wide)
}

/// Refuses a value outside INT, naming it.
pub fn check_int(what: &str, value: i128) -> Result<i32> {
    i32::try_from(value).map_err(|_| TierproofError::OutOfRange {
        what: what.to_string(),
        value: value.to_string(),
    })
}

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

/// [`parse_upserts_csv`] of a file's bytes: invalid UTF-8 is refused with its line.
pub fn parse_upserts_csv_bytes(bytes: &[u8]) -> Result<Vec<Row>> {
    parse_upserts_csv(utf8_text("CSV", bytes)?)
}

/// Refuses a workload without upserts: a proof of nothing is not CONSISTENT.
pub fn require_upserts(upserts: Vec<Row>, source: &str) -> Result<Vec<Row>> {
    if upserts.is_empty() {
        return Err(TierproofError::InvalidInput(format!(
            "{source} holds no upserts; a proof of nothing would say nothing"
        )));
    }
    Ok(upserts)
}

/// CSV with the header `id,bal`, one upsert a line; an empty `bal` (or `NULL`) is NULL. Blank
/// lines are skipped; every error names its line. A CSV without upserts is refused.
pub fn parse_upserts_csv(text: &str) -> Result<Vec<Row>> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    match lines.next() {
        Some((_, header)) if normalize_header(header) == "id,bal" => {}
        Some((_, header)) => {
            return Err(TierproofError::InvalidInput(format!(
                "CSV line 1: the header must be `id,bal`, found {header:?}"
            )))
        }
        None => {
            return Err(TierproofError::InvalidInput(
                "CSV is empty: it needs the header `id,bal`".to_string(),
            ))
        }
    }
    let upserts = lines
        .map(|(n, line)| parse_csv_line(n + 1, line))
        .collect::<Result<Vec<Row>>>()?;
    require_upserts(upserts, "the CSV")
}

fn normalize_header(header: &str) -> String {
    header
        .trim_start_matches('\u{feff}')
        .split(',')
        .map(|f| f.trim().to_ascii_lowercase())
        .collect::<Vec<_>>()
        .join(",")
}

fn parse_csv_line(line_no: usize, line: &str) -> Result<Row> {
    let fields: Vec<&str> = line.split(',').collect();
    if fields.len() != 2 {
        return Err(TierproofError::InvalidInput(format!(
            "CSV line {line_no}: expected 2 fields `id,bal`, found {} in {line:?}",
            fields.len()
        )));
    }
    let id = parse_int(&format!("CSV line {line_no} id"), fields[0])?;
    let bal_text = fields[1].trim();
    let bal = if bal_text.is_empty() || bal_text.eq_ignore_ascii_case("null") {
        None
    } else {
        Some(parse_int(&format!("CSV line {line_no} bal"), bal_text)?)
    };
    Ok(Row::new(id, bal))
}

/// Renders upserts as the CSV [`parse_upserts_csv`] reads.
pub fn upserts_csv(upserts: &[Row]) -> String {
    let mut out = String::from("id,bal\n");
    for u in upserts {
        match u.bal {
            Some(b) => out.push_str(&format!("{},{}\n", u.id, b)),
            None => out.push_str(&format!("{},\n", u.id)),
        }
    }
    out
}

/// `n` upserts over `keys` distinct ids, from `seed`. Ids are centred on 0 (`-keys/2..keys-keys/2`,
/// so negative ids occur); about one balance in sixteen is NULL and one in sixty-four an INT
/// extreme, so the edges are always exercised.
pub fn random_upserts(n: usize, keys: u32, seed: u64) -> Result<Vec<Row>> {
    if keys == 0 {
        return Err(TierproofError::InvalidInput(
            "--keys must be at least 1".to_string(),
        ));
    }
    let mut rng = SplitMix64(seed);
    Ok((0..n)
        .map(|_| {
            let id = (rng.next_u64() % u64::from(keys)) as i64 - i64::from(keys / 2);
            let roll = rng.next_u64();
            let bal = match roll % 64 {
                0..=3 => None,
                4 => Some(i32::MAX),
                5 => Some(i32::MIN),
                _ => Some(((roll >> 8) % 2_000_001) as i32 - 1_000_000),
            };
            Row::new(id as i32, bal)
        })
        .collect())
}

/// A tiny, well-known generator: the same sequence on every platform for a seed.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_round_trip_with_nulls() {
        let ups = vec![
            Row::new(1, Some(10)),
            Row::new(2, None),
            Row::new(-1, Some(i32::MIN)),
        ];
        assert_eq!(parse_upserts_csv(&upserts_csv(&ups)).unwrap(), ups);
        assert_eq!(
            parse_upserts_csv("id,bal\n1,NULL\n").unwrap(),
            [Row::new(1, None)]
        );
    }

    #[test]
    fn csv_errors_name_line_and_value() {
        let e = parse_upserts_csv("id,bal\n1,2\n3,2147483648\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "CSV line 3 bal 2147483648 is outside INT [-2147483648, 2147483647]"
        );
        let e = parse_upserts_csv("id,bal\nx,1\n").unwrap_err();
        assert!(e.to_string().contains("\"x\" is not an integer"), "{e}");
        assert!(parse_upserts_csv("a,b\n")
            .unwrap_err()
            .to_string()
            .contains("header"));
        assert!(parse_upserts_csv("id,bal\n1\n")
            .unwrap_err()
            .to_string()
            .contains("line 2"));
    }

    #[test]
    fn invalid_utf8_names_its_line_and_an_empty_csv_is_refused() {
        let e = parse_upserts_csv_bytes(b"id,bal\n1,2\n3,\xff4\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid input: CSV line 3 is not valid UTF-8: byte 0xFF at column 3"
        );
        let e = parse_upserts_csv("id,bal\n\n").unwrap_err();
        assert!(e.to_string().contains("holds no upserts"), "{e}");
        assert!(random_upserts(0, 3, 1).is_ok());
        assert!(require_upserts(Vec::new(), "--random 0").is_err());
    }

    #[test]
    fn random_is_deterministic_and_in_range() {
        let a = random_upserts(1000, 7, 42).unwrap();
        assert_eq!(a, random_upserts(1000, 7, 42).unwrap());
        assert_ne!(a, random_upserts(1000, 7, 43).unwrap());
        assert!(a.iter().all(|r| (-3..4).contains(&r.id)));
        assert!(a.iter().any(|r| r.id < 0));
        assert!(a.iter().any(|r| r.bal.is_none()));
        assert!(random_upserts(1, 0, 1).is_err());
    }
}
