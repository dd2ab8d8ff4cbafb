//! The compact encoding a harness streams a read's changes in: one byte array per batch, each
//! change its row kind byte, then per column an unsigned LEB128 varint — 0 for NULL, else the
//! UTF-8 length plus one — and the text. One copy per batch crosses the language boundary, not
//! one object per cell.

use crate::error::{Result, TierproofError};

fn bad(reason: String) -> TierproofError {
    TierproofError::InvalidInput(format!("a batch of changes is malformed: {reason}"))
}

/// A change as the wire carries it: its kind code and its cells (`None` is NULL), borrowed from
/// the batch.
pub type WireChange<'a> = (u8, Vec<Option<&'a str>>);

/// The changes of a batch, `width` cells each, borrowed from it (no copy of any cell).
pub fn decode_batch(bytes: &[u8], width: usize) -> Result<Vec<WireChange<'_>>> {
    let mut out = Vec::new();
    for_each_change(bytes, width, |kind, cells| {
        out.push((kind, cells.to_vec()));
        Ok(())
    })?;
    Ok(out)
}

/// Hands each change of a batch to `f` in order, its cells borrowed from the batch in one
/// vector reused from change to change; stops at the first error.
pub fn for_each_change<'a>(
    bytes: &'a [u8],
    width: usize,
    mut f: impl FnMut(u8, &[Option<&'a str>]) -> Result<()>,
) -> Result<()> {
    let mut cells = Vec::with_capacity(width);
    let mut at = 0;
    while at < bytes.len() {
        let kind = bytes[at];
        at += 1;
        cells.clear();
        for _ in 0..width {
            let mut len: u64 = 0;
            let mut shift = 0;
            loop {
                let b = *bytes
                    .get(at)
                    .ok_or_else(|| bad(format!("it ends inside a length at byte {at}")))?;
                at += 1;
                len |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    break;
                }
                shift += 7;
                if shift > 35 {
                    return Err(bad(format!("a length runs past 5 bytes at byte {at}")));
                }
            }
            if len == 0 {
                cells.push(None);
                continue;
            }
            let n = (len - 1) as usize;
            let text = bytes.get(at..at + n).ok_or_else(|| {
                bad(format!(
                    "a cell of {n} bytes runs past its end at byte {at}"
                ))
            })?;
            at += n;
            let text = std::str::from_utf8(text)
                .map_err(|_| bad(format!("a cell is not UTF-8 at byte {at}")))?;
            cells.push(Some(text));
        }
        f(kind, &cells)?;
    }
    Ok(())
}

/// Appends one change in the wire format (what the Java `ReadBuffer` writes; for tests and
/// benchmarks).
pub fn encode(kind: u8, cells: &[Option<&str>], out: &mut Vec<u8>) {
    out.push(kind);
    for c in cells {
        put_cell(out, c.map(str::as_bytes));
    }
}

/// Appends one cell as the wire writes it: 0 for NULL, else its length plus one, then its bytes.
pub(crate) fn put_cell(out: &mut Vec<u8>, cell: Option<&[u8]>) {
    let mut len = cell.map_or(0, |t| t.len() as u64 + 1);
    loop {
        let b = (len & 0x7f) as u8;
        len >>= 7;
        out.push(if len == 0 { b } else { b | 0x80 });
        if len == 0 {
            break;
        }
    }
    if let Some(t) = cell {
        out.extend_from_slice(t);
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_nulls_empty_long_and_unicode_cells() {
        let long = "x".repeat(300);
        let mut bytes = Vec::new();
        encode(0, &[Some("eu"), None, Some("")], &mut bytes);
        encode(2, &[Some(&long), Some("表😀"), None], &mut bytes);
        let rows = decode_batch(&bytes, 3).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0], (0, vec![Some("eu"), None, Some("")]));
        assert_eq!(rows[1].1[0], Some(long.as_str()));
        assert_eq!(rows[1].1[1], Some("表😀"));
        assert!(decode_batch(&bytes[..bytes.len() - 1], 3).is_err());
        assert!(decode_batch(&[0, 5, b'a'], 1)
            .unwrap_err()
            .to_string()
            .contains("runs past"));
    }
}
