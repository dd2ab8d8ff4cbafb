//! The reads and the sentinel write the harness runs, generated here so that every statement the
//! project sends to Flink is quoted by one piece of code.

use crate::error::Result;
use crate::ident::{quote_ident, quote_literal, TablePath};
use crate::row::Row;
use crate::spec::COLUMNS;
use crate::upsert::{insert_values, int_literal};

/// `SELECT id, bal FROM table /*+ OPTIONS(...) */ [WHERE id <> exclude_id]`.
pub fn select_rows(
    table: &str,
    options: &[(String, String)],
    exclude_id: Option<i32>,
) -> Result<String> {
    let path = TablePath::parse(table)?;
    let mut sql = format!(
        "SELECT {}, {} FROM {}",
        quote_ident(COLUMNS[0]),
        quote_ident(COLUMNS[1]),
        path.quoted()
    );
    if !options.is_empty() {
        sql.push_str(&format!(" /*+ OPTIONS({}) */", options_list(options)));
    }
    if let Some(id) = exclude_id {
        sql.push_str(&format!(
            " WHERE {} <> {}",
            quote_ident(COLUMNS[0]),
            int_literal(Some(id))
        ));
    }
    Ok(sql)
}

/// An `INSERT` of one row whose commit carries `watermark` (Paimon's `end-input.watermark`): a
/// streaming read with `scan.bounded.watermark` below it ends there, without emitting it.
pub fn sentinel_insert(table: &str, id: i32, watermark: i64) -> Result<String> {
    let path = TablePath::parse(table)?;
    let plain = insert_values(&path, &[Row::new(id, Some(0))]);
    let hint = format!(
        " /*+ OPTIONS({}) */",
        options_list(&[("end-input.watermark".to_string(), watermark.to_string())])
    );
    // The hint follows the table name: INSERT INTO `t` /*+ OPTIONS(...) */ VALUES ...
    let at = format!("INSERT INTO {}", path.quoted()).len();
    Ok(format!("{}{}{}", &plain[..at], hint, &plain[at..]))
}

/// The smallest id, from INT's minimum up, that no upsert uses: a key for the sentinel row.
pub fn unused_id(upserts: &[Row]) -> Option<i32> {
    let mut ids: Vec<i32> = upserts.iter().map(|r| r.id).collect();
    ids.sort_unstable();
    ids.dedup();
    let mut candidate = i32::MIN;
    for id in ids {
        if id != candidate {
            return Some(candidate);
        }
        candidate = candidate.checked_add(1)?;
    }
    Some(candidate)
}

fn options_list(options: &[(String, String)]) -> String {
    options
        .iter()
        .map(|(k, v)| format!("{}={}", quote_literal(k), quote_literal(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_with_hints_and_exclusion() {
        let sql = select_rows(
            "t",
            &[("scan.mode".into(), "from-snapshot".into())],
            Some(i32::MIN),
        )
        .unwrap();
        assert_eq!(
            sql,
            "SELECT `id`, `bal` FROM `t` /*+ OPTIONS('scan.mode'='from-snapshot') */ WHERE `id` <> -2147483648"
        );
        assert_eq!(
            select_rows("t", &[], None).unwrap(),
            "SELECT `id`, `bal` FROM `t`"
        );
    }

    #[test]
    fn sentinel_carries_the_watermark() {
        assert_eq!(
            sentinel_insert("db.t", 7, 1000).unwrap(),
            "INSERT INTO `db`.`t` /*+ OPTIONS('end-input.watermark'='1000') */ VALUES (7, 0)"
        );
    }

    #[test]
    fn unused_id_skips_taken_ones() {
        let ups = [
            Row::new(i32::MIN, None),
            Row::new(i32::MIN + 1, Some(1)),
            Row::new(5, None),
        ];
        assert_eq!(unused_id(&ups), Some(i32::MIN + 2));
        assert_eq!(unused_id(&[]), Some(i32::MIN));
    }
}
