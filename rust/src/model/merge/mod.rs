//! How a keyed table merges the writes of one key, read from its options: Paimon's merge engines
//! (deduplicate, first-row, partial-update, aggregation with per-column functions, sequence
//! fields) and Fluss's (the default last row, `first_row`, `versioned`). The expected state of a
//! workload is computed here, exactly, by modelling what each engine documents; what this model
//! does not cover is refused up front, naming the option, never guessed.

use crate::create_table::CreateTable;
use crate::error::{Result, TierproofError};
use crate::model::rows::canon::{canon, CanonRow};
use crate::model::rows::packed::{PackedKey, PackedMap, Packer};
use crate::model::values::types::DataType;
use crate::model::values::value::Value;
use crate::model::workloads::workload::{Op, OpKind, Shape};
use std::cmp::Ordering;

pub mod names;
mod options;
mod state;
#[cfg(test)]
mod tests;

use options::refused;

/// Which system the table is declared for: its options are that system's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// A Paimon table (`merge-engine`, `sequence.field`, `fields.<c>.aggregate-function`, …).
    Paimon,
    /// A Fluss primary-key table that tiers into Paimon (`table.merge-engine`, …).
    Fluss,
}

/// A per-column aggregate function of Paimon's aggregation engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agg {
    Sum,
    Max,
    Min,
    LastValue,
    LastNonNullValue,
    FirstValue,
    FirstNonNullValue,
}

impl Agg {
    fn parse(column: &str, name: &str) -> Result<Agg> {
        Ok(match name {
            "sum" => Agg::Sum,
            "max" => Agg::Max,
            "min" => Agg::Min,
            "last_value" => Agg::LastValue,
            "last_non_null_value" => Agg::LastNonNullValue,
            "first_value" => Agg::FirstValue,
            "first_non_null_value" => Agg::FirstNonNullValue,
            other => {
                return Err(refused(format!(
                    "column {column}: aggregate function {other:?} is not modelled (sum, max, min, last_value, last_non_null_value, first_value, first_non_null_value are)"
                )))
            }
        })
    }
}

/// The engine that merges the writes of one key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Engine {
    /// The last write wins (Paimon `deduplicate`, Fluss's default).
    Deduplicate,
    /// The first write wins; later ones are dropped.
    FirstRow,
    /// Each non-NULL value of a write replaces the stored one; NULLs leave it.
    PartialUpdate,
    /// Each non-key column folds its writes with its function (`None` for key columns).
    Aggregation(Vec<Option<Agg>>),
    /// Fluss: a write replaces the row when its version column is at least the stored one.
    Versioned(usize),
}

/// The merge rules of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub engine: Engine,
    /// Paimon's `sequence.field` columns: writes of a key apply in their order, then arrival.
    pub sequence: Vec<usize>,
    /// Whether a delete removes the key (`false`: deletes are ignored, `ignore-delete`).
    pub deletes_remove: bool,
    /// Why deletes are refused for this table, if they are (before anything is written).
    pub deletes_refused: Option<String>,
    /// Why Flink SQL cannot write this table's deletes (Fluss 0.9.1's SQL DELETE and some key
    /// types), if it cannot: the SQL producer refuses such a workload; the Fluss client writes it.
    pub sql_deletes_refused: Option<String>,
    /// Why a streaming replay of the Paimon table is not a promise of the merged state, if it is
    /// not: only the `lookup` and `full-compaction` changelog producers emit merged changes for
    /// an engine other than deduplicate (Paimon's docs); `input` and `none` replay raw writes.
    pub replay_not_promised: Option<String>,
    /// Whether a streaming replay of the lake table is a complete changelog (`+I` for a new key,
    /// `-U`/`+U` pairs, `-D` of the current row), judged strictly: Paimon's `lookup` and
    /// `full-compaction` producers, and a Fluss table's lake (tiered from Fluss's changelog).
    /// Otherwise it streams raw writes (`input`, `none`).
    pub complete_changelog: bool,
    /// Whether a streaming replay shows every write as it was made (Paimon's `input` producer
    /// on a deduplicate table without sequence fields): then each key's changes are checked
    /// write by write.
    pub replay_shows_every_write: bool,
}

impl Merge {
    /// The rules a table's options declare, or a refusal naming what is not modelled.
    /// The last write per key; deletes remove their key.
    pub fn deduplicate() -> Merge {
        Merge {
            engine: Engine::Deduplicate,
            sequence: Vec::new(),
            deletes_remove: true,
            deletes_refused: None,
            sql_deletes_refused: None,
            replay_not_promised: None,
            complete_changelog: false,
            replay_shows_every_write: false,
        }
    }

    pub fn of(table: &CreateTable, shape: &Shape, target: Target) -> Result<Merge> {
        let dedup = Self::deduplicate();
        if shape.key.is_empty() {
            return Ok(dedup);
        }
        match target {
            Target::Paimon => Self::paimon(table, shape),
            Target::Fluss => Self::fluss(
                table,
                shape,
                Merge {
                    complete_changelog: true,
                    ..dedup
                },
            ),
        }
    }

    /// What the expected state is, in words, for the verdict.
    pub fn promise(&self, shape: &Shape) -> String {
        if shape.key.is_empty() {
            return "every row written (no key)".into();
        }
        let engine = match &self.engine {
            Engine::Deduplicate => "the last write per key",
            Engine::FirstRow => "the first write per key (first-row)",
            Engine::PartialUpdate => {
                "the writes of each key merged column by column (partial-update)"
            }
            Engine::Aggregation(_) => "each key's writes aggregated per column (aggregation)",
            Engine::Versioned(_) => "the highest version per key (versioned)",
        };
        if self.sequence.is_empty() {
            engine.to_string()
        } else {
            format!("{engine}, in sequence.field order")
        }
    }

    /// Columns the workload must never write NULL to: the sequence and version columns (their
    /// order for NULL is not modelled).
    pub fn ordering_columns(&self) -> Vec<usize> {
        let mut c = self.sequence.clone();
        if let Engine::Versioned(v) = self.engine {
            c.push(v);
        }
        c
    }

    /// `shape` as a writer must fill it: the ordering columns NOT NULL too.
    pub fn writable_shape(&self, shape: &Shape) -> Shape {
        let mut writable = shape.clone();
        for c in self.ordering_columns() {
            writable.not_null[c] = true;
        }
        writable
    }

    /// Refuses a workload this table cannot take, naming the operation.
    pub fn check_ops(&self, shape: &Shape, ops: &[Op]) -> Result<()> {
        for (n, op) in ops.iter().enumerate() {
            match op.kind {
                OpKind::Delete => {
                    if let Some(why) = &self.deletes_refused {
                        return Err(TierproofError::InvalidInput(format!(
                            "operation {} is a delete: {why}",
                            n + 1
                        )));
                    }
                }
                OpKind::Upsert => {
                    for c in self.ordering_columns() {
                        if op.values[c] == Value::Null {
                            return Err(TierproofError::InvalidInput(format!(
                                "operation {} writes NULL to {}, which orders the writes of a key; the oracle does not model NULL there",
                                n + 1,
                                shape.columns[c].0
                            )));
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
