//! A table's merge engine, read from its options as Paimon and Fluss read them: what each
//! engine and option does to the rows, and which combinations are refused.

use super::names::PaimonEngine;
use super::*;

pub(super) fn refused(reason: String) -> TierproofError {
    TierproofError::RefusedDdl(reason)
}

pub(super) fn column(shape: &Shape, name: &str, option: &str) -> Result<usize> {
    shape
        .columns
        .iter()
        .position(|(c, _)| c == name.trim())
        .ok_or_else(|| {
            refused(format!(
                "option {option:?} names {name:?}, which is not a column"
            ))
        })
}

pub(super) fn is_true(table: &CreateTable, key: &str) -> bool {
    table
        .option(key)
        .is_some_and(|v| v.eq_ignore_ascii_case("true"))
}

impl Merge {
    pub(super) fn paimon(table: &CreateTable, shape: &Shape) -> Result<Merge> {
        for (key, _) in &table.options {
            if key.ends_with(".sequence-group") || key == "sequence.field.sort-order" {
                return Err(refused(format!(
                    "option {key:?} is not modelled by the oracle yet"
                )));
            }
        }
        let sequence = match table.option("sequence.field") {
            None => Vec::new(),
            Some(list) => list
                .split(',')
                .map(|c| column(shape, c, "sequence.field"))
                .collect::<Result<Vec<_>>>()?,
        };
        for &c in &sequence {
            let (name, ty) = &shape.columns[c];
            if matches!(
                ty,
                DataType::Boolean | DataType::Binary(_) | DataType::VarBinary(_)
            ) {
                return Err(refused(format!(
                    "sequence.field {name} is {ty}; the oracle orders numbers, decimals, texts, dates, times and timestamps"
                )));
            }
        }
        let ignore_delete =
            is_true(table, "ignore-delete") || is_true(table, "first-row.ignore-delete");
        let engine_name = table.option("merge-engine").unwrap_or("deduplicate");
        let (engine, remove_option) = match PaimonEngine::named(engine_name) {
            Some(PaimonEngine::Deduplicate) => (Engine::Deduplicate, None),
            Some(PaimonEngine::FirstRow) => (Engine::FirstRow, Some("ignore-delete")),
            Some(PaimonEngine::PartialUpdate) => (
                Engine::PartialUpdate,
                Some("partial-update.remove-record-on-delete"),
            ),
            Some(PaimonEngine::Aggregation) => {
                let default = table.option("fields.default-aggregate-function");
                let functions = shape
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, (name, _))| {
                        if shape.key.contains(&i) {
                            return Ok(None);
                        }
                        let f = table
                            .option(&format!("fields.{name}.aggregate-function"))
                            .or(default)
                            .unwrap_or("last_non_null_value");
                        Agg::parse(name, f).map(Some)
                    })
                    .collect::<Result<Vec<_>>>()?;
                (
                    Engine::Aggregation(functions),
                    Some("aggregation.remove-record-on-delete"),
                )
            }
            None => {
                return Err(refused(format!(
                    "merge-engine {engine_name:?} is not one Paimon has ({})",
                    PaimonEngine::names()
                )))
            }
        };
        if engine == Engine::FirstRow && !sequence.is_empty() {
            return Err(refused(
                "sequence.field with merge-engine first-row is not modelled".into(),
            ));
        }
        let removes = match remove_option {
            None => true,
            Some(option) => is_true(table, option) && option != "ignore-delete",
        };
        let deletes_refused = (!removes && !ignore_delete).then(|| match remove_option {
            Some(option) if option != "ignore-delete" => format!(
                "a {engine_name} table takes no deletes unless '{option}' (or 'ignore-delete') is 'true'"
            ),
            _ => format!("a {engine_name} table takes no deletes unless 'ignore-delete' is 'true'"),
        });
        let producer = table.option("changelog-producer").unwrap_or("none");
        let replay_not_promised = (engine != Engine::Deduplicate
            && !matches!(producer, "lookup" | "full-compaction"))
        .then(|| {
            format!(
                "merge-engine {engine_name:?} with changelog-producer {producer:?} streams the raw writes, not merged changes (use 'lookup' or 'full-compaction' for a merged changelog)"
            )
        });
        let every_write = producer == "input"
            && engine == Engine::Deduplicate
            && sequence.is_empty()
            && !ignore_delete;
        Ok(Merge {
            engine,
            sequence,
            deletes_remove: !ignore_delete,
            deletes_refused,
            sql_deletes_refused: None,
            replay_not_promised,
            complete_changelog: matches!(producer, "lookup" | "full-compaction"),
            replay_shows_every_write: every_write,
        })
    }

    pub(super) fn fluss(table: &CreateTable, shape: &Shape, dedup: Merge) -> Result<Merge> {
        let name = table.option("table.merge-engine");
        let engine = match name {
            None | Some("default") | Some("last_row") => {
                return Ok(Merge {
                    sql_deletes_refused: fluss_sql_delete_blocker(shape),
                    ..dedup
                })
            }
            Some("first_row") => Engine::FirstRow,
            Some("versioned") => {
                let option = "table.merge-engine.versioned.ver-column";
                let ver = table.option(option).ok_or_else(|| {
                    refused(format!("a versioned table needs {option:?}"))
                })?;
                let c = column(shape, ver, option)?;
                let ty = shape.columns[c].1;
                if !matches!(
                    ty,
                    DataType::Int
                        | DataType::BigInt
                        | DataType::Timestamp(_)
                        | DataType::TimestampLtz(_)
                ) {
                    return Err(refused(format!(
                        "the version column {ver} is {ty}; Fluss takes INT, BIGINT, TIMESTAMP or TIMESTAMP_LTZ"
                    )));
                }
                Engine::Versioned(c)
            }
            Some(other) => {
                return Err(refused(format!(
                    "table.merge-engine {other:?} is not modelled (the default, first_row and versioned are)"
                )))
            }
        };
        Ok(Merge {
            deletes_refused: Some(format!(
                "a Fluss {} table takes no deletes",
                name.unwrap_or_default()
            )),
            engine,
            ..dedup
        })
    }
}

/// Why Fluss 0.9.1's SQL `DELETE` cannot delete from this table, if it cannot: it pushes the
/// delete down only when every key column is compared with a literal of a type it converts
/// (CHAR, VARCHAR, BOOLEAN, DECIMAL, INT, BIGINT, DOUBLE, TIMESTAMP, TIMESTAMP_LTZ); for any other
/// key type it fails with a misleading message (docs/findings/fluss-0.9-delete-key-types.md).
pub(super) fn fluss_sql_delete_blocker(shape: &Shape) -> Option<String> {
    shape.key.iter().find_map(|&k| {
        let (name, ty) = &shape.columns[k];
        let pushed = matches!(
            ty,
            DataType::Char(_)
                | DataType::VarChar(_)
                | DataType::Boolean
                | DataType::Decimal(..)
                | DataType::Int
                | DataType::BigInt
                | DataType::Double
                | DataType::Timestamp(_)
                | DataType::TimestampLtz(_)
        );
        (!pushed).then(|| {
            format!(
                "Fluss 0.9.1's SQL DELETE cannot match key column {name} of type {ty} (it fails with \"only supports DELETE statement with conditions on primary key\"; docs/findings/fluss-0.9-delete-key-types.md)"
            )
        })
    })
}
