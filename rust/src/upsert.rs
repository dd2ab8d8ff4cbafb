//! Ordered upserts as Flink SQL `INSERT` statements.

use crate::error::Result;
use crate::ident::TablePath;
use crate::row::Row;

/// One `INSERT` per upsert, in the given order: later writes for an id supersede earlier ones.
pub fn upsert_inserts(table: &str, upserts: &[Row]) -> Result<Vec<String>> {
    let path = TablePath::parse(table)?;
    Ok(upserts
        .iter()
        .map(|u| insert_values(&path, &[*u]))
        .collect())
}

/// The fast path: the upserts in order, at most `max_rows` to a statement. Each statement is one
/// Flink job and one Paimon commit; within it the rows keep their order (proved on real Paimon by
/// the Java tests before the harness relies on it).
pub fn batched_upsert_inserts(
    table: &str,
    upserts: &[Row],
    max_rows: usize,
) -> Result<Vec<String>> {
    let path = TablePath::parse(table)?;
    Ok(upserts
        .chunks(max_rows.max(1))
        .map(|chunk| insert_values(&path, chunk))
        .collect())
}

/// `INSERT INTO path VALUES (...), (...)` for a non-empty slice.
pub fn insert_values(path: &TablePath, rows: &[Row]) -> String {
    let mut sql = format!("INSERT INTO {} VALUES ", path.quoted());
    for (i, row) in rows.iter().enumerate() {
        if i > 0 {
            sql.push_str(", ");
        }
        sql.push('(');
        sql.push_str(&int_literal(Some(row.id)));
        sql.push_str(", ");
        sql.push_str(&int_literal(row.bal));
        sql.push(')');
    }
    sql
}

/// An INT literal Flink types as INT. NULL and INT's minimum are cast: a bare NULL has no type in
/// a multi-row VALUES, and `-2147483648` parses as the negation of a BIGINT.
pub fn int_literal(value: Option<i32>) -> String {
    match value {
        None => "CAST(NULL AS INT)".to_string(),
        Some(i32::MIN) => "CAST(-2147483648 AS INT)".to_string(),
        Some(v) => v.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_insert_per_upsert_in_order() {
        let ups = [
            Row::new(1, Some(10)),
            Row::new(1, None),
            Row::new(-3, Some(i32::MIN)),
        ];
        let sql = upsert_inserts("t", &ups).unwrap();
        assert_eq!(
            sql,
            [
                "INSERT INTO `t` VALUES (1, 10)",
                "INSERT INTO `t` VALUES (1, CAST(NULL AS INT))",
                "INSERT INTO `t` VALUES (-3, CAST(-2147483648 AS INT))",
            ]
        );
    }

    #[test]
    fn batches_keep_order_and_size() {
        let ups: Vec<Row> = (0..5).map(|i| Row::new(i % 2, Some(i))).collect();
        let sql = batched_upsert_inserts("db.t", &ups, 2).unwrap();
        assert_eq!(sql.len(), 3);
        assert_eq!(sql[0], "INSERT INTO `db`.`t` VALUES (0, 0), (1, 1)");
        assert_eq!(sql[2], "INSERT INTO `db`.`t` VALUES (0, 4)");
    }

    #[test]
    fn no_upserts_no_statements() {
        assert!(upsert_inserts("t", &[]).unwrap().is_empty());
        assert!(batched_upsert_inserts("t", &[], 10).unwrap().is_empty());
    }

    #[test]
    fn bad_table_is_refused() {
        assert!(upsert_inserts("", &[Row::new(1, Some(1))]).is_err());
    }
}
