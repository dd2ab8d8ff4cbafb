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
    fn no_upserts_no_statements() {
        assert!(upsert_inserts("t", &[]).unwrap().is_empty());
    }

    #[test]
    fn bad_table_is_refused() {
        assert!(upsert_inserts("", &[Row::new(1, Some(1))]).is_err());
    }
}
