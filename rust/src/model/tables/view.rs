//! Reads that ask for less than every row and column — `COUNT(*)`, a filter on a key column, a
//! filter on a partition, a projection — are reads too (issue 9): each is judged against the same
//! view of the expected state, and of the first full read, so a wrong count or a filter that
//! loses rows cannot hide behind a right `SELECT *`.

use crate::error::Result;
use crate::ident::quote_ident;
use crate::model::rows::canon::CanonRow;
use crate::model::values::types::DataType;
use crate::model::workloads::workload::{Op, Shape};

/// What a view read returns of the table's rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum View {
    /// `SELECT COUNT(*)`: one row, the number of rows.
    Count,
    /// Every column of the rows whose `column` is one of `values` (canonical text).
    Filter { column: usize, values: Vec<String> },
    /// Only `columns`, every row.
    Project { columns: Vec<usize> },
}

/// A view read: its name (`count`, `filter_key`, `filter_partition`, `projection`), its query,
/// and what it returns.
#[derive(Debug, Clone)]
pub struct ViewQuery {
    pub name: String,
    pub sql: String,
    pub view: View,
}

impl View {
    /// The columns the read returns, and whether they still hold a key: a projection keeps the
    /// key when it keeps every key column; a count is one BIGINT.
    pub fn shape(&self, full: &Shape) -> Shape {
        match self {
            View::Filter { .. } => full.clone(),
            View::Count => Shape {
                columns: vec![("count".into(), DataType::BigInt)],
                not_null: vec![true],
                key: Vec::new(),
            },
            View::Project { columns } => {
                let key = if full.key.iter().all(|k| columns.contains(k)) {
                    full.key
                        .iter()
                        .map(|k| columns.iter().position(|c| c == k).unwrap_or_default())
                        .collect()
                } else {
                    Vec::new()
                };
                Shape {
                    columns: columns.iter().map(|&c| full.columns[c].clone()).collect(),
                    not_null: columns.iter().map(|&c| full.not_null[c]).collect(),
                    key,
                }
            }
        }
    }

    /// The same view of full rows (the expected state, or the first read), sorted as a fold's.
    pub fn apply(&self, rows: &[CanonRow]) -> Vec<CanonRow> {
        let mut out: Vec<CanonRow> = match self {
            View::Count => vec![vec![Some(rows.len().to_string())]],
            View::Filter { column, values } => rows
                .iter()
                .filter(|r| r[*column].as_ref().is_some_and(|v| values.contains(v)))
                .cloned()
                .collect(),
            View::Project { columns } => rows
                .iter()
                .map(|r| columns.iter().map(|&c| r[c].clone()).collect())
                .collect(),
        };
        out.sort();
        out
    }
}

/// The view reads of a table: a count; a filter on the first key column (the first column of a
/// table without a key) to the values of up to three of the workload's keys; a filter on the first
/// partition column to one value the workload writes; a projection on the key columns (the first
/// column without a key). `from` is the table's quoted path; `literal` writes a value as SQL.
pub fn view_queries(
    shape: &Shape,
    partition: &[usize],
    ops: &[Op],
    from: &str,
    literal: impl Fn(&Op, usize) -> Result<String>,
) -> Result<Vec<ViewQuery>> {
    let all: Vec<String> = shape.columns.iter().map(|(c, _)| quote_ident(c)).collect();
    let mut out = vec![ViewQuery {
        name: "count".into(),
        sql: format!("SELECT COUNT(*) FROM {from}"),
        view: View::Count,
    }];
    let key_column = shape.key.first().copied().unwrap_or(0);
    let chosen = distinct_values(shape, ops, key_column, 3);
    if !chosen.is_empty() {
        let literals = chosen
            .iter()
            .map(|(op, _)| literal(op, key_column))
            .collect::<Result<Vec<_>>>()?;
        out.push(ViewQuery {
            name: "filter_key".into(),
            sql: format!(
                "SELECT {} FROM {from} WHERE {} IN ({})",
                all.join(", "),
                quote_ident(&shape.columns[key_column].0),
                literals.join(", ")
            ),
            view: View::Filter {
                column: key_column,
                values: chosen.into_iter().map(|(_, v)| v).collect(),
            },
        });
    }
    if let Some(&p) = partition.first() {
        if let Some((op, value)) = distinct_values(shape, ops, p, 1).into_iter().next() {
            out.push(ViewQuery {
                name: "filter_partition".into(),
                sql: format!(
                    "SELECT {} FROM {from} WHERE {} = {}",
                    all.join(", "),
                    quote_ident(&shape.columns[p].0),
                    literal(op, p)?
                ),
                view: View::Filter {
                    column: p,
                    values: vec![value],
                },
            });
        }
    }
    let columns = if shape.key.is_empty() {
        vec![0]
    } else {
        shape.key.clone()
    };
    out.push(ViewQuery {
        name: "projection".into(),
        sql: format!(
            "SELECT {} FROM {from}",
            columns
                .iter()
                .map(|&c| quote_ident(&shape.columns[c].0))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        view: View::Project { columns },
    });
    Ok(out)
}

/// Up to `n` distinct non-NULL values of `column` in the workload, in the order first written,
/// each with an operation that writes it (for its literal).
fn distinct_values<'a>(
    shape: &Shape,
    ops: &'a [Op],
    column: usize,
    n: usize,
) -> Vec<(&'a Op, String)> {
    let ty = shape.columns[column].1;
    let mut out: Vec<(&Op, String)> = Vec::new();
    for op in ops {
        let v = &op.values[column];
        if *v == crate::model::values::value::Value::Null {
            continue;
        }
        let text = v.canonical(ty);
        if !out.iter().any(|(_, t)| *t == text) {
            out.push((op, text));
            if out.len() == n {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cells: &[&str]) -> CanonRow {
        cells.iter().map(|c| Some(c.to_string())).collect()
    }

    #[test]
    fn each_view_of_the_rows() {
        let rows = vec![row(&["a", "1"]), row(&["b", "2"]), row(&["c", "1"])];
        assert_eq!(View::Count.apply(&rows), vec![row(&["3"])]);
        let f = View::Filter {
            column: 1,
            values: vec!["1".into()],
        };
        assert_eq!(f.apply(&rows), vec![row(&["a", "1"]), row(&["c", "1"])]);
        let p = View::Project { columns: vec![1] };
        assert_eq!(p.apply(&rows), vec![row(&["1"]), row(&["1"]), row(&["2"])]);
        assert_eq!(View::Count.apply(&[]), vec![row(&["0"])]);
    }
}
