//! Ordered upserts as Flink SQL `INSERT` statements.

use crate::error::Result;
use crate::ident::{quote_ident, TablePath};
use crate::row::Row;
use crate::spec::COLUMNS;

/// One `INSERT` per upsert, in the given order: later writes for an id supersede earlier ones.
pub fn upsert_inserts(table: &str, upserts: &[Row]) -> Result<Vec<String>> {
    let path = TablePath::parse(table)?;
    Ok(upserts
        .iter()
        .map(|u| insert_values(&path, &[*u]))
        .collect())
}

/// The fast path: the upserts in order, at most `max_rows` to one `INSERT … VALUES`. Each
/// statement is one Flink job and one Paimon commit; within it the rows keep their order (proved
/// on real Paimon by the Java tests before the harness relies on it).
///
/// The `VALUES` holds literals only, with a NULL flag per row, and one projection turns the flag
/// into NULL: Flink plans a `VALUES` of literals as one source, but gives every row holding an
/// expression (such as `CAST(NULL AS INT)`) an operator of its own.
pub fn batched_upsert_inserts(
    table: &str,
    upserts: &[Row],
    max_rows: usize,
) -> Result<Vec<String>> {
    let path = TablePath::parse(table)?;
    let (id, bal, null) = (
        quote_ident(COLUMNS[0]),
        quote_ident(COLUMNS[1]),
        quote_ident("bal_is_null"),
    );
    Ok(upserts
        .chunks(max_rows.max(1))
        .map(|chunk| {
            let rows: Vec<String> = chunk
                .iter()
                .map(|r| match r.bal {
                    Some(b) => format!("({}, {b}, FALSE)", r.id),
                    None => format!("({}, 0, TRUE)", r.id),
                })
                .collect();
            format!(
                "INSERT INTO {} SELECT {id}, IF({null}, CAST(NULL AS INT), {bal}) FROM (VALUES {}) AS {}({id}, {bal}, {null})",
                path.quoted(),
                rows.join(", "),
                quote_ident("upserts"),
            )
        })
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

/// An INT literal as Flink types it: a bare NULL has no type, so it is cast (INT's minimum,
/// `-2147483648`, is an INT literal to Flink).
pub fn int_literal(value: Option<i32>) -> String {
    match value {
        None => "CAST(NULL AS INT)".to_string(),
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
                "INSERT INTO `t` VALUES (-3, -2147483648)",
            ]
        );
    }

    #[test]
    fn batches_keep_order_and_size() {
        let ups: Vec<Row> = (0..5).map(|i| Row::new(i % 2, Some(i))).collect();
        let sql = batched_upsert_inserts("db.t", &ups, 2).unwrap();
        assert_eq!(sql.len(), 3);
        assert_eq!(
            sql[0],
            "INSERT INTO `db`.`t` SELECT `id`, IF(`bal_is_null`, CAST(NULL AS INT), `bal`) FROM (VALUES (0, 0, FALSE), (1, 1, FALSE)) AS `upserts`(`id`, `bal`, `bal_is_null`)"
        );
        assert!(sql[2].contains("(VALUES (0, 4, FALSE))"));
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
