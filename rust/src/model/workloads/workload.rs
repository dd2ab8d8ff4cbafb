//! A workload for any table: ordered upserts and deletes, read from a CSV whose header names the
//! table's columns (and, optionally, an `op` column), typed by the table.

use crate::create_table::CreateTable;
use crate::error::{Result, TierproofError};
use crate::model::values::types::DataType;
use crate::model::values::value::Value;
use crate::model::workloads::csv::{records, Field};

/// What an operation does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpKind {
    /// Writes the whole row (for a keyed table: replaces the row of its key).
    Upsert,
    /// Removes the row of its key (a keyed table only; absent keys are allowed).
    Delete,
}

/// One operation: its kind and a value per table column, in the table's order (a delete's
/// non-key values are NULL).
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    pub kind: OpKind,
    pub values: Vec<Value>,
}

/// A table as the workload and the oracle see it: column names and types, key positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    pub columns: Vec<(String, DataType)>,
    pub not_null: Vec<bool>,
    /// Positions of the primary key's columns, in key order; empty for a table without a key.
    pub key: Vec<usize>,
}

/// A row as text cells; `None` is NULL.
pub type TextRow = Vec<Option<String>>;

impl Shape {
    pub fn of(table: &CreateTable) -> Result<Shape> {
        let columns = table
            .columns
            .iter()
            .map(|c| {
                if let Some(kind) = c.non_physical {
                    return Err(TierproofError::RefusedDdl(format!(
                        "column {} is {kind}, not a stored column; a proof writes every column",
                        c.name
                    )));
                }
                Ok((c.name.clone(), DataType::parse(&c.data_type)?))
            })
            .collect::<Result<Vec<_>>>()?;
        let key = table
            .primary_key
            .iter()
            .map(|k| {
                columns.iter().position(|(n, _)| n == k).ok_or_else(|| {
                    TierproofError::InvalidInput(format!("primary key column {k} is not a column"))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let not_null = table
            .columns
            .iter()
            .map(|c| c.not_null || table.primary_key.contains(&c.name))
            .collect();
        Ok(Shape {
            columns,
            not_null,
            key,
        })
    }
}

impl Shape {
    /// A row of text cells (as a reader returned it, or as written), typed by the columns.
    pub fn parse_row<S: AsRef<str>>(&self, cells: &[Option<S>]) -> Result<Vec<Value>> {
        if cells.len() != self.columns.len() {
            return Err(TierproofError::InvalidInput(format!(
                "{} values for {} columns",
                cells.len(),
                self.columns.len()
            )));
        }
        cells
            .iter()
            .zip(&self.columns)
            .map(|(c, (name, ty))| match c {
                None => Ok(Value::Null),
                Some(t) => Value::parse(*ty, t.as_ref()).map_err(|e| {
                    TierproofError::InvalidInput(format!("column {name}: {}", e.detail()))
                }),
            })
            .collect()
    }

    /// A row's values as Flink SQL literals of their columns' types.
    pub fn literals(&self, values: &[Value]) -> Result<Vec<String>> {
        values
            .iter()
            .zip(&self.columns)
            .map(|(v, (name, ty))| {
                v.sql_literal(*ty).map_err(|e| {
                    TierproofError::InvalidInput(format!("column {name}: {}", e.detail()))
                })
            })
            .collect()
    }
}

fn bad(line: usize, message: String) -> TierproofError {
    TierproofError::InvalidInput(format!("CSV line {line}: {message}"))
}

/// One operation from its `op` text (absent: an upsert) and a text per column in the table's
/// order (`None`: NULL); the error is the message without its line.
pub(crate) fn op_of(
    shape: &Shape,
    op: Option<&str>,
    cells: &[Option<&str>],
) -> std::result::Result<Op, String> {
    let kind = match op {
        None | Some("" | "upsert" | "+I" | "+U") => OpKind::Upsert,
        Some("delete" | "-D") => OpKind::Delete,
        Some(other) => {
            return Err(format!(
                "op {other:?} is not upsert (+I, +U) or delete (-D)"
            ))
        }
    };
    if kind == OpKind::Delete && shape.key.is_empty() {
        return Err("a delete needs a table with a primary key".into());
    }
    let mut values = Vec::with_capacity(shape.columns.len());
    for (c, (name, ty)) in shape.columns.iter().enumerate() {
        let is_key = shape.key.contains(&c);
        // A delete is by key: its other values are not written.
        let value = match cells[c] {
            Some(text) if kind == OpKind::Upsert || is_key => {
                Value::parse(*ty, text).map_err(|e| format!("column {name}: {}", e.detail()))?
            }
            _ => Value::Null,
        };
        if value == Value::Null && shape.not_null[c] && (kind == OpKind::Upsert || is_key) {
            return Err(format!("column {name} is NOT NULL but empty"));
        }
        values.push(value);
    }
    Ok(Op { kind, values })
}

/// Parses a workload CSV for `shape`. The header names every column once (any order) and may add
/// `op`: `upsert` (or `+I`, `+U`, empty) or `delete` (or `-D`). An unquoted empty field is NULL,
/// `""` the empty string. Every error names its line, column and value.
pub fn parse_workload_csv(shape: &Shape, text: &str) -> Result<Vec<Op>> {
    let mut recs = records(text)?.into_iter();
    let header = recs.next().ok_or_else(|| {
        TierproofError::InvalidInput("the CSV is empty: it needs a header".into())
    })?;
    let names: Vec<String> = header
        .fields
        .iter()
        .map(|f| f.text.trim().to_string())
        .collect();
    let mut position = vec![None; shape.columns.len()];
    let mut op_at = None;
    for (i, name) in names.iter().enumerate() {
        if name == "op" && shape.columns.iter().all(|(c, _)| c != "op") {
            op_at = Some(i);
            continue;
        }
        match shape.columns.iter().position(|(c, _)| c == name) {
            Some(c) if position[c].is_none() => position[c] = Some(i),
            Some(_) => return Err(bad(header.line, format!("column {name:?} is named twice"))),
            None => {
                let known: Vec<&str> = shape.columns.iter().map(|(c, _)| c.as_str()).collect();
                return Err(bad(
                    header.line,
                    format!(
                        "{name:?} is not a column of the table ({})",
                        known.join(", ")
                    ),
                ));
            }
        }
    }
    if let Some(missing) = position.iter().position(Option::is_none) {
        return Err(bad(
            header.line,
            format!("the header lacks column {:?}", shape.columns[missing].0),
        ));
    }
    let position: Vec<usize> = position
        .into_iter()
        .map(|p| p.unwrap_or_default())
        .collect();
    let mut ops = Vec::new();
    for rec in recs {
        if rec.fields.len() != names.len() {
            return Err(bad(
                rec.line,
                format!(
                    "{} fields for the header's {}",
                    rec.fields.len(),
                    names.len()
                ),
            ));
        }
        let cells: Vec<Option<&str>> = position
            .iter()
            .map(|&p| {
                let f: &Field = &rec.fields[p];
                (!f.text.is_empty() || f.quoted).then_some(f.text.as_str())
            })
            .collect();
        let op = op_of(shape, op_at.map(|i| rec.fields[i].text.trim()), &cells)
            .map_err(|m| bad(rec.line, m))?;
        ops.push(op);
    }
    if ops.is_empty() {
        return Err(TierproofError::InvalidInput(
            "the CSV holds no operations; a proof of nothing would say nothing".into(),
        ));
    }
    Ok(ops)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_table::parse_create_table;

    pub(crate) fn ledger() -> Shape {
        Shape::of(
            &parse_create_table(
                "CREATE TABLE ledger (region STRING, id BIGINT, amount DECIMAL(12, 2), note STRING, day DATE, \
                 PRIMARY KEY (region, id, day) NOT ENFORCED) PARTITIONED BY (day) WITH ('bucket' = '4')",
            )
            .unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn typed_ops_in_order_with_nulls_and_deletes() {
        let ops = parse_workload_csv(
            &ledger(),
            "op,day,region,id,amount,note\n\
             ,2024-02-29,eu,1,10.50,\"a, b\"\n\
             upsert,2024-02-29,eu,1,,\"\"\n\
             delete,2024-02-29,eu,1,,\n\
             -D,2024-03-01,us,9,,\n",
        )
        .unwrap();
        assert_eq!(ops.len(), 4);
        assert_eq!(ops[0].kind, OpKind::Upsert);
        assert_eq!(ops[0].values[0], Value::Text("eu".into()));
        assert_eq!(ops[0].values[3], Value::Text("a, b".into()));
        assert_eq!(ops[1].values[2], Value::Null);
        assert_eq!(ops[1].values[3], Value::Text(String::new()));
        assert_eq!(ops[2].kind, OpKind::Delete);
    }

    #[test]
    fn errors_name_line_column_and_value() {
        let shape = ledger();
        for (csv, message) in [
            ("region,id,amount,note\n", "the header lacks column \"day\""),
            (
                "region,id,amount,note,day,x\n",
                "\"x\" is not a column of the table",
            ),
            (
                "region,id,amount,note,day\neu,1,1.005,,2024-01-01\n",
                "CSV line 2: column amount: DECIMAL(12, 2) value \"1.005\"",
            ),
            (
                "region,id,amount,note,day\neu,,1,,2024-01-01\n",
                "CSV line 2: column id is NOT NULL but empty",
            ),
            (
                "region,id,amount,note,day\neu,1,1\n",
                "CSV line 2: 3 fields for the header's 5",
            ),
            (
                "op,region,id,amount,note,day\nmerge,eu,1,1,,2024-01-01\n",
                "op \"merge\" is not upsert",
            ),
            ("region,id,amount,note,day\n", "holds no operations"),
        ] {
            let e = parse_workload_csv(&shape, csv).unwrap_err().to_string();
            assert!(e.contains(message), "{csv}: {e}");
        }
        let keyless = Shape::of(&parse_create_table("CREATE TABLE l (a INT)").unwrap()).unwrap();
        let e = parse_workload_csv(&keyless, "op,a\ndelete,1\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("a delete needs a table with a primary key"),
            "{e}"
        );
    }
}
