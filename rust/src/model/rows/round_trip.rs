//! Do typed values survive the trip through Flink and Paimon? Given a table (a checked
//! `CREATE TABLE`) and rows as text, write them as one `INSERT … VALUES` of typed literals; given
//! the rows a reader returned (as text), name every value that came back different. Rows are
//! matched by their first column (the key).

use crate::create_table::CreateTable;
use crate::error::{Result, TierproofError};
use crate::model::rows::canon::{canon, CanonRow};
use crate::model::workloads::workload::{Shape, TextRow};

fn at_row(n: usize, e: TierproofError) -> TierproofError {
    TierproofError::InvalidInput(format!("row {n} {}", e.detail()))
}

/// One `INSERT INTO table VALUES (…), (…)` of the rows as typed literals.
pub fn insert_statement(table: &CreateTable, rows: &[TextRow]) -> Result<String> {
    let shape = Shape::of(table)?;
    let mut tuples = Vec::with_capacity(rows.len());
    for (n, row) in rows.iter().enumerate() {
        let literals = shape
            .parse_row(row)
            .and_then(|values| shape.literals(&values))
            .map_err(|e| at_row(n + 1, e))?;
        tuples.push(format!("({})", literals.join(", ")));
    }
    if tuples.is_empty() {
        return Err(TierproofError::InvalidInput(
            "no rows to insert".to_string(),
        ));
    }
    Ok(format!(
        "INSERT INTO {} VALUES {}",
        table.path.quoted(),
        tuples.join(", ")
    ))
}

/// Every difference between the rows written and the rows read, as lines naming the key, the
/// column and both canonical values; empty when every value came back the same.
pub fn differences(
    table: &CreateTable,
    written: &[TextRow],
    read: &[TextRow],
) -> Result<Vec<String>> {
    let shape = Shape::of(table)?;
    let columns = &shape.columns;
    let canon = |rows: &[TextRow]| -> Result<Vec<CanonRow>> {
        rows.iter()
            .enumerate()
            .map(|(n, r)| {
                Ok(canon(
                    &shape,
                    &shape.parse_row(r).map_err(|e| at_row(n + 1, e))?,
                ))
            })
            .collect()
    };
    let text = |c: &Option<String>| c.clone().unwrap_or_else(|| "NULL".to_string());
    let (mut w, mut r) = (canon(written)?, canon(read)?);
    w.sort();
    r.sort();
    let mut out = Vec::new();
    for row in &w {
        match r.iter().find(|x| x[0] == row[0]) {
            None => out.push(format!("key {}: written, not read back", text(&row[0]))),
            Some(back) => {
                for (i, (name, ty)) in columns.iter().enumerate() {
                    if row[i] != back[i] {
                        out.push(format!(
                            "key {} column {name} {ty}: wrote {:?}, read {:?}",
                            text(&row[0]),
                            text(&row[i]),
                            text(&back[i])
                        ));
                    }
                }
            }
        }
    }
    for row in &r {
        if !w.iter().any(|x| x[0] == row[0]) {
            out.push(format!("key {}: read back, never written", text(&row[0])));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_table::parse_create_table;

    fn row(cells: &[Option<&str>]) -> TextRow {
        cells.iter().map(|c| c.map(str::to_string)).collect()
    }

    #[test]
    fn typed_literals_and_differences() {
        let t = parse_create_table(
            "CREATE TABLE t (id INT, d DECIMAL(5, 2), s STRING, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED)",
        )
        .unwrap();
        let written = vec![
            row(&[
                Some("1"),
                Some("1.5"),
                Some("a'b"),
                Some("2024-02-29 12:00:00.5"),
            ]),
            row(&[Some("2"), None, Some(""), None]),
        ];
        assert_eq!(
            insert_statement(&t, &written).unwrap(),
            "INSERT INTO `t` VALUES (1, CAST('1.50' AS DECIMAL(5, 2)), CAST('a''b' AS STRING), CAST(TIMESTAMP '2024-02-29 12:00:00.500' AS TIMESTAMP(3))), (2, CAST(NULL AS DECIMAL(5, 2)), CAST('' AS STRING), CAST(NULL AS TIMESTAMP(3)))"
        );
        // As Java prints them: BigDecimal with its scale, LocalDateTime with a T.
        let read = vec![
            row(&[Some("2"), None, Some(""), None]),
            row(&[
                Some("1"),
                Some("1.50"),
                Some("a'b"),
                Some("2024-02-29T12:00:00.500"),
            ]),
        ];
        assert!(differences(&t, &written, &read).unwrap().is_empty());
        let changed = vec![row(&[
            Some("1"),
            Some("1.51"),
            Some("a'b"),
            Some("2024-02-29T12:00"),
        ])];
        let d = differences(&t, &written, &changed).unwrap();
        assert_eq!(d.len(), 3, "{d:?}");
        assert!(
            d[0].contains("column d DECIMAL(5, 2): wrote \"1.50\", read \"1.51\""),
            "{d:?}"
        );
        assert!(d[2].contains("key 2: written, not read back"), "{d:?}");
        let e = insert_statement(&t, &[row(&[Some("1"), Some("1.005"), None, None])]).unwrap_err();
        assert!(e.to_string().contains("row 1 column d"), "{e}");
    }
}
