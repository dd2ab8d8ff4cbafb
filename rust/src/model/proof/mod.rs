//! A proof of any table (issue 8): the workload lives here, in Rust; the harness asks it for the
//! statements to run, the sentinel commit that bounds the streaming read, the queries, and the
//! verdict over the rows it read. Judged against a deduplicate table's state (the last write per
//! key, deletes applied) or, for a table without a key, every row written.
//!
//! Here: the proof itself (its table, workload and expected state). Beside it, one file a role:
//! `statements` (the workload as SQL), `sentinel` (the row that ends a streaming read), `reads`
//! (reads folding as they stream in), `judge` (the verdict), `shrinking` (smaller proofs for a
//! search), `schema` (the verdict's one sample, which the Java side binds field by field), and
//! `tests`.

use super::merge::{Engine, Merge, Target};
use super::oracle::{diff, writes_per_key, Fold, Folded, Folder, PackedBatch, RowKind, Writes};
use crate::create_table::{parse_create_table, CreateTable};
use crate::error::{Result, TierproofError};
use crate::ident::{quote_ident, quote_literal, validate_fluss_name};
use crate::model::oracle::spill::Spill;
use crate::model::rows::canon::{canon, key_of, CanonRow};
use crate::model::rows::packed::{pack, Packed, Packer};
use crate::model::search::generate::{narrow_partitions, random_ops, PARTITION_VALUES};
use crate::model::search::shrink::shrink_candidates;
use crate::model::tables::view::{view_queries, View, ViewQuery};
use crate::model::values::types::DataType;
use crate::model::values::value::Value;
use crate::model::workloads::csv::utf8_text;
use crate::model::workloads::input::parse_workload;
use crate::model::workloads::wire::for_each_change;
use crate::model::workloads::workload::{Op, OpKind, Shape};
use serde::Serialize;
use std::sync::{Arc, OnceLock};

mod coverage;
mod evolution;
mod judge;
mod partitioned;
mod reads;
#[cfg(test)]
mod schema;
mod sentinel;
mod shrinking;
mod statements;
#[cfg(test)]
mod tests;
mod uncertain;

pub use evolution::AddedColumn;
pub(in crate::model) use judge::update_after_note;
pub use judge::{AnomalyOut, Check, ReadVerdict, Verdict};
pub(in crate::model) use reads::thread_cpu_time;
pub use reads::{PendingRead, ReadInput};
use sentinel::{choose_sentinel, filler, partition_columns, partition_text_columns};
pub use uncertain::Uncertain;

/// The most anomalies a read lists, and differences a check lists on each side, when judged
/// partition by partition (the rest are counted): what keeps the verdict bounded too. The ones
/// listed are the first: the lowest change indices, the smallest rows.
pub const LISTED_ANOMALIES: usize = 1000;
pub const LISTED_DIFFERENCES: usize = 100;

/// What a read is, as the harness knows it; the core decides how strictly that is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A batch read, or a streaming read that starts from a full snapshot: each key once.
    Snapshot,
    /// A streaming replay of the lake table's changes from its first snapshot.
    Replay,
    /// Fluss's log of the table, from the earliest offset.
    Log,
}

impl Source {
    /// The code the Java face passes (`Workload.Source`'s ordinal).
    pub fn of_code(code: i32) -> Result<Source> {
        match code {
            0 => Ok(Source::Snapshot),
            1 => Ok(Source::Replay),
            2 => Ok(Source::Log),
            _ => Err(TierproofError::InvalidInput(format!(
                "read source {code} is not 0 (snapshot), 1 (replay) or 2 (log)"
            ))),
        }
    }
}

/// A checked table, its workload, and the sentinel row that bounds the streaming read.
#[derive(Debug, Clone)]
pub struct Proof {
    pub table: CreateTable,
    pub shape: Shape,
    /// How the table merges the writes of a key (its engine and options).
    pub merge: Merge,
    pub target: Target,
    /// When the reads are judged against another table's promise (the matrix's append-only
    /// variant against its keyed table's last write per key): that table's shape and merge.
    pub promise: Option<(Shape, Merge)>,
    pub ops: Vec<Op>,
    /// A row no operation writes: its value in column [`Self::sentinel_column`] is used by none.
    pub sentinel: Vec<Value>,
    pub sentinel_column: usize,
    /// Each key's writes, as a stream of every write must show them: built by the first read
    /// that needs them, shared by the rest.
    writes: OnceLock<Arc<Writes>>,
    /// The writes whose outcome is unknown (0-based, ascending): see [`uncertain`].
    uncertain: Vec<usize>,
    /// Of those, the ones the client reported failed (0-based, ascending): judged as not
    /// applied unless only their taking effect explains the reads, which is then a finding.
    rejected: Vec<usize>,
}

fn refused(reason: String) -> TierproofError {
    TierproofError::RefusedDdl(reason)
}

/// A CSV field, always quoted (so the empty string is `""`, not NULL).
fn csv_field(text: &str) -> String {
    format!("\"{}\"", text.replace('"', "\"\""))
}

/// The lake options a Fluss table of a streamhouse proof gets unless its DDL sets them.
pub const FLUSS_LAKE_DEFAULTS: [(&str, &str); 2] = [
    ("table.datalake.enabled", "true"),
    ("table.datalake.freshness", "1s"),
];

/// The DDL, checked for a general proof: one safe `CREATE TABLE` of stored columns of supported
/// types whose merge rules the oracle models. A Fluss table gets names Fluss accepts and tiering
/// on (the lake options default to [`FLUSS_LAKE_DEFAULTS`]; turning the lake off is refused).
fn checked_table(ddl: &str, target: Target) -> Result<(CreateTable, Shape, Merge)> {
    let mut table = parse_create_table(ddl)?;
    table.check_safe()?;
    if target == Target::Fluss {
        for part in table.path.parts() {
            validate_fluss_name(part)?;
        }
        if table
            .option("table.datalake.enabled")
            .is_some_and(|v| !v.eq_ignore_ascii_case("true"))
        {
            return Err(refused(
                "'table.datalake.enabled' must be 'true': the streamhouse proof checks what tiering writes to the lake".into(),
            ));
        }
        for (key, value) in FLUSS_LAKE_DEFAULTS {
            if table.option(key).is_none() {
                table.options.push((key.to_string(), value.to_string()));
            }
        }
    }
    let shape = Shape::of(&table)?;
    let merge = Merge::of(&table, &shape, target)?;
    Ok((table, shape, merge))
}

impl Proof {
    /// Checks the DDL alone, as [`Self::open`] does first: bad input names what is wrong.
    pub fn check_table(target: Target, ddl: &str) -> Result<()> {
        checked_table(ddl, target).map(|_| ())
    }

    /// Checks the DDL (one safe `CREATE TABLE` of supported types and modelled merge rules) for
    /// `target` and parses the workload CSV against it.
    pub fn open(target: Target, ddl: &str, csv: &[u8]) -> Result<Self> {
        let (table, shape, merge) = checked_table(ddl, target)?;
        let ops = parse_workload(&shape, utf8_text("workload", csv)?)?;
        Self::with_ops(table, shape, merge, target, ops)
    }

    /// A table with no workload: for reads of a table someone else wrote, judged by
    /// [`Self::judge_against_first`].
    pub fn of_table(target: Target, ddl: &str) -> Result<Self> {
        let (table, shape, merge) = checked_table(ddl, target)?;
        let mut p = Self::with_ops(table, shape, merge, target, Vec::new())?;
        // Nobody commits a sentinel to a table someone else wrote: no value may be left out of
        // its reads (a NULL sentinel cell matches no change).
        p.sentinel.fill(Value::Null);
        Ok(p)
    }

    /// As [`Self::open`], but the reads are judged against what `promise_ddl`'s table (the same
    /// columns, another key or engine) would hold: the matrix shows an append-only table
    /// against the promise of the keyed one.
    pub fn open_judged_as(
        target: Target,
        ddl: &str,
        promise_ddl: &str,
        csv: &[u8],
    ) -> Result<Self> {
        Self::open(target, ddl, csv)?.judged_as(target, promise_ddl)
    }

    /// A seeded workload made for `promise_ddl`'s table (without deletes, which a table without
    /// a key cannot take), written to the DDL's table and judged by the promise's (see
    /// [`Self::open_judged_as`]), each partition column of either table taking at most
    /// `partition_values` values (0: as drawn).
    pub fn generate_judged_as(
        target: Target,
        ddl: &str,
        promise_ddl: &str,
        n: usize,
        keys: u32,
        seed: u64,
        partition_values: usize,
    ) -> Result<Self> {
        let mut ops = Self::generate_partitioned(
            target,
            promise_ddl,
            n,
            keys,
            seed,
            false,
            partition_values,
        )?
        .ops;
        let (table, shape, merge) = checked_table(ddl, target)?;
        // The written table's partitions, too.
        narrow_partitions(
            &mut ops,
            &partition_columns(&table, &shape),
            partition_values,
        );
        Self::with_ops(table, shape, merge, target, ops)?.judged_as(target, promise_ddl)
    }

    fn judged_as(mut self, target: Target, promise_ddl: &str) -> Result<Self> {
        let (_, shape, merge) = checked_table(promise_ddl, target)?;
        if shape.columns != self.shape.columns {
            return Err(TierproofError::InvalidInput(
                "the promise's table has other columns than the table read".into(),
            ));
        }
        merge.check_ops(&shape, &self.ops)?;
        self.promise = Some((shape, merge));
        Ok(self)
    }

    /// The rows the reads must hold: the last write per key as the table's engine merges it, or
    /// what the promise's table would hold.
    pub fn expected(&self) -> Vec<CanonRow> {
        match (&self.promise, self.writes.get()) {
            (Some((shape, merge)), _) => merge.state(shape, &self.ops),
            // Each key's writes, built for a replay that shows every write (a deduplicate
            // table), already end in its row: the same state, without folding the workload again.
            (None, Some(writes)) if self.merge.replay_shows_every_write => writes.final_rows(),
            (None, _) => self.merge.state(&self.shape, &self.ops),
        }
    }

    /// Checks the DDL and generates `n` operations over about `keys` keys from `seed`, with
    /// deletes if `deletes` and the table takes them (no NULL where a column orders the writes),
    /// each partition column taking [`PARTITION_VALUES`] values.
    pub fn generate(
        target: Target,
        ddl: &str,
        n: usize,
        keys: u32,
        seed: u64,
        deletes: bool,
    ) -> Result<Self> {
        Self::generate_partitioned(target, ddl, n, keys, seed, deletes, PARTITION_VALUES)
    }

    /// As [`Self::generate`], each partition column taking at most `partition_values` values
    /// (0: as many as the keys make, a partition per key or so).
    pub fn generate_partitioned(
        target: Target,
        ddl: &str,
        n: usize,
        keys: u32,
        seed: u64,
        deletes: bool,
        partition_values: usize,
    ) -> Result<Self> {
        let (table, shape, merge) = checked_table(ddl, target)?;
        let mut ops = random_ops(
            &merge.writable_shape(&shape),
            n,
            keys,
            seed,
            deletes && merge.deletes_refused.is_none(),
        )?;
        narrow_partitions(
            &mut ops,
            &partition_columns(&table, &shape),
            partition_values,
        );
        if target == Target::Fluss {
            // Fluss refuses a NULL partition value (a keyless table's partition column may be NULL).
            for c in partition_columns(&table, &shape) {
                for op in &mut ops {
                    if op.values[c] == Value::Null {
                        op.values[c] = filler(shape.columns[c].1);
                    }
                }
            }
            // Fluss names a partition by its value: text values it takes as names only.
            for c in partition_text_columns(&table, &shape) {
                for op in &mut ops {
                    if let Value::Text(t) = &op.values[c] {
                        if validate_fluss_name(t).is_err() {
                            let hex: String = t.bytes().map(|b| format!("{b:02x}")).collect();
                            let max = match shape.columns[c].1 {
                                DataType::Char(n) | DataType::VarChar(n) => n as usize,
                                _ => hex.len(),
                            };
                            op.values[c] = Value::Text(
                                format!("x{hex}").chars().take(max.clamp(1, 200)).collect(),
                            );
                        }
                    }
                }
            }
        }
        Self::with_ops(table, shape, merge, target, ops)
    }

    fn with_ops(
        table: CreateTable,
        shape: Shape,
        merge: Merge,
        target: Target,
        ops: Vec<Op>,
    ) -> Result<Self> {
        merge.check_ops(&shape, &ops)?;
        if target == Target::Fluss {
            for c in partition_columns(&table, &shape) {
                if let Some(n) = ops.iter().position(|op| op.values[c] == Value::Null) {
                    return Err(TierproofError::InvalidInput(format!(
                        "operation {}: partition column {} is NULL; Fluss 0.9.1 refuses a NULL partition value (\"Partition value shouldn't be null\")",
                        n + 1,
                        shape.columns[c].0
                    )));
                }
            }
            for c in partition_text_columns(&table, &shape) {
                for (n, op) in ops.iter().enumerate() {
                    if let Value::Text(t) = &op.values[c] {
                        if let Err(e) = validate_fluss_name(t) {
                            return Err(TierproofError::InvalidInput(format!(
                                "operation {}: partition column {}: {}; Fluss names a partition by its value (0.9.1's client would try to create it and fail in ZooKeeper)",
                                n + 1,
                                shape.columns[c].0,
                                e.detail()
                            )));
                        }
                    }
                }
            }
        }
        // The sentinel's key is new, so its order columns only need to be set, not ordered.
        let (sentinel_column, sentinel) = choose_sentinel(&merge.writable_shape(&shape), &ops)?;
        Ok(Proof {
            table,
            shape,
            merge,
            target,
            promise: None,
            ops,
            sentinel,
            sentinel_column,
            writes: OnceLock::new(),
            uncertain: Vec::new(),
            rejected: Vec::new(),
        })
    }

    /// Operations `from..from + count` (fewer at the end) as text for a producer that writes
    /// them itself: per operation its kind (`upsert` or `delete`), then its cells as canonical
    /// text (`None` is NULL; a delete's non-key cells are NULL).
    pub fn operation_cells(&self, from: usize, count: usize) -> Vec<Option<String>> {
        let end = from.saturating_add(count).min(self.ops.len());
        let mut out = Vec::new();
        for op in self.ops.get(from..end).unwrap_or_default() {
            out.push(Some(
                match op.kind {
                    OpKind::Upsert => "upsert",
                    OpKind::Delete => "delete",
                }
                .to_string(),
            ));
            out.extend(canon(&self.shape, &op.values));
        }
        out
    }

    /// Why one ordered job (a changelog of upserts and key-only deletes) cannot write this
    /// workload as its statements would, if it cannot: a delete on a table whose engine is not
    /// deduplicate (an aggregation or partial-update table treats a delete by its row's values,
    /// and a key-only delete row has none). None when it can.
    pub fn ordered_write_refused(&self) -> Option<String> {
        let deletes = self.ops.iter().any(|op| op.kind == OpKind::Delete);
        let plain = self.merge.engine == Engine::Deduplicate
            && self.merge.sequence.is_empty()
            && self.merge.deletes_remove;
        (deletes && !plain).then(|| {
            "the workload deletes, and on a table with a merge engine other than deduplicate, sequence \
             fields or ignored deletes a delete is more than its key: write it with --writer statements"
                .to_string()
        })
    }

    /// The operations as statements write them, for one ordered job to write the same: a delete
    /// of a present key carries that key's row (Paimon's `DELETE` writes the row it removes), a
    /// delete of an absent key writes nothing. Judge with `self`, not with what this returns.
    pub fn as_written(&self) -> Result<Proof> {
        if let Some(why) = self.ordered_write_refused() {
            return Err(TierproofError::InvalidInput(why));
        }
        let key_of_op = |op: &Op| key_of(&self.shape, &canon(&self.shape, &op.values));
        let mut rows: std::collections::HashMap<CanonRow, Vec<Value>> =
            std::collections::HashMap::new();
        let mut ops = Vec::with_capacity(self.ops.len());
        for op in &self.ops {
            match op.kind {
                OpKind::Upsert => {
                    if !self.shape.key.is_empty() {
                        rows.insert(key_of_op(op), op.values.clone());
                    }
                    ops.push(op.clone());
                }
                OpKind::Delete => {
                    if let Some(values) = rows.remove(&key_of_op(op)) {
                        ops.push(Op {
                            kind: OpKind::Delete,
                            values,
                        });
                    }
                }
            }
        }
        self.with_workload(ops)
    }

    /// The workload as the CSV [`Self::open`] reads: an `op` column, NULL as an empty field,
    /// every other value quoted.
    pub fn workload_csv(&self) -> String {
        let mut out = String::from("op");
        for (name, _) in &self.shape.columns {
            out.push(',');
            out.push_str(&csv_field(name));
        }
        out.push('\n');
        for op in &self.ops {
            out.push_str(match op.kind {
                OpKind::Upsert => "upsert",
                OpKind::Delete => "delete",
            });
            for (v, (_, ty)) in op.values.iter().zip(&self.shape.columns) {
                out.push(',');
                if *v != Value::Null {
                    out.push_str(&csv_field(&v.canonical(*ty)));
                }
            }
            out.push('\n');
        }
        out
    }

    pub fn keyed(&self) -> bool {
        !self.shape.key.is_empty()
    }
}
