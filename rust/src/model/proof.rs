//! A proof of any table (issue 8): the workload lives here, in Rust; the harness asks it for the
//! statements to run, the sentinel commit that bounds the streaming read, the queries, and the
//! verdict over the rows it read. Judged against a deduplicate table's state (the last write per
//! key, deletes applied) or, for a table without a key, every row written.

use super::canon::{canon, key_of, CanonRow};
use super::csv::utf8_text;
use super::generate::random_ops;
use super::input::parse_workload;
use super::merge::{Engine, Merge, Target};
use super::oracle::{diff, writes_per_key, Fold, Folded, Folder, PackedBatch, RowKind, Writes};
use super::packed::{pack, Packed, Packer};
use super::shrink::shrink_candidates;
use super::spill::Spill;
use super::types::DataType;
use super::value::Value;
use super::view::{view_queries, View, ViewQuery};
use super::wire::for_each_change;
use super::workload::{Op, OpKind, Shape};
use crate::create_table::{parse_create_table, CreateTable};
use crate::error::{Result, TierproofError};
use crate::ident::{quote_ident, quote_literal, validate_fluss_name};
use serde::Serialize;
use std::sync::{Arc, OnceLock};

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
    /// [`Self::open_judged_as`]).
    pub fn generate_judged_as(
        target: Target,
        ddl: &str,
        promise_ddl: &str,
        n: usize,
        keys: u32,
        seed: u64,
    ) -> Result<Self> {
        let ops = Self::generate(target, promise_ddl, n, keys, seed, false)?.ops;
        let (table, shape, merge) = checked_table(ddl, target)?;
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
    /// deletes if `deletes` and the table takes them (no NULL where a column orders the writes).
    pub fn generate(
        target: Target,
        ddl: &str,
        n: usize,
        keys: u32,
        seed: u64,
        deletes: bool,
    ) -> Result<Self> {
        let (table, shape, merge) = checked_table(ddl, target)?;
        let mut ops = random_ops(
            &merge.writable_shape(&shape),
            n,
            keys,
            seed,
            deletes && merge.deletes_refused.is_none(),
        )?;
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

    /// The same workload and table under another name (`table` or `db.table`, checked as a
    /// DDL's name is): a search proves each trial's candidates in tables of their own.
    pub fn renamed(&self, table: &str) -> Result<Proof> {
        let mut p = self.clone();
        p.table.path = crate::ident::TablePath::parse(table)?;
        p.table.check_safe()?;
        if p.target == Target::Fluss {
            for part in p.table.path.parts() {
                validate_fluss_name(part)?;
            }
        }
        Ok(p)
    }

    /// The workload's first `n` operations, of the same table and judged the same way: what a
    /// read taken after them (a checkpoint between rounds) must hold.
    pub fn prefix(&self, n: usize) -> Result<Proof> {
        self.with_workload(self.ops[..n.min(self.ops.len())].to_vec())
    }

    /// The operations at `positions` (0-based, strictly ascending), in the workload's order, of
    /// the same table and judged the same way: what a lake snapshot holding exactly those writes
    /// must hold (a consistent cut: per bucket, the writes up to the snapshot's offset).
    pub fn subset(&self, positions: &[usize]) -> Result<Proof> {
        let mut ops = Vec::with_capacity(positions.len());
        let mut previous: Option<usize> = None;
        for &p in positions {
            if p >= self.ops.len() || previous.is_some_and(|q| p <= q) {
                return Err(TierproofError::InvalidInput(format!(
                    "operation position {p} is not past the previous one{} and below the workload's {}",
                    previous.map(|q| format!(" ({q})")).unwrap_or_default(),
                    self.ops.len()
                )));
            }
            previous = Some(p);
            ops.push(self.ops[p].clone());
        }
        self.with_workload(ops)
    }

    /// The `index`th smaller or simpler case, simplest first, judged as this one is; None past
    /// the last: first smaller tables the workload still fits ([`Self::smaller_tables`]), then
    /// smaller or simpler workloads of the same table that it takes (see [`super::shrink`]).
    pub fn shrink_candidate(&self, index: usize) -> Option<Proof> {
        let tables = self.smaller_tables();
        if index < tables.len() {
            return tables.into_iter().nth(index);
        }
        shrink_candidates(&self.shape, &self.ops)
            .into_iter()
            .filter_map(|ops| self.with_workload(ops).ok())
            .nth(index - tables.len())
    }

    /// Smaller tables for the same operations, each a step: one bucket instead of several; no
    /// partitioning (the column stays); a key column fewer (the column stays, as a value); an
    /// option fewer; without one value column that no key, partition or option names (its
    /// values dropped from every operation). Those the engine's rules refuse
    /// are left out; a table judged as another keeps its columns.
    pub fn smaller_tables(&self) -> Vec<Proof> {
        let mut out = Vec::new();
        let bucket_key = if self.target == Target::Fluss {
            "bucket.num"
        } else {
            "bucket"
        };
        if self
            .table
            .option(bucket_key)
            .is_some_and(|b| b.trim() != "1")
        {
            let mut t = self.table.clone();
            for (k, v) in &mut t.options {
                if k == bucket_key {
                    *v = "1".into();
                }
            }
            out.extend(self.with_table(t, |ops| ops.to_vec()));
        }
        if !self.table.partition_keys.is_empty() {
            let mut t = self.table.clone();
            t.partition_keys.clear();
            out.extend(self.with_table(t, |ops| ops.to_vec()));
        }
        if self.promise.is_none() {
            // A key column fewer (never a partition column: a partitioned table's key holds them).
            if self.table.primary_key.len() > 1 {
                for name in &self.table.primary_key {
                    if self.table.partition_keys.contains(name) {
                        continue;
                    }
                    let mut t = self.table.clone();
                    t.primary_key.retain(|k| k != name);
                    // Paimon and Fluss refuse a key of partition columns alone (a row per partition).
                    if t.primary_key.iter().all(|k| t.partition_keys.contains(k)) {
                        continue;
                    }
                    out.extend(self.with_table(t, |ops| ops.to_vec()));
                }
            }
            // An option fewer, but never the one that makes the table tier (nor the bucket count,
            // stepped above): without it the case would be another, a table that never tiers.
            for (key, _) in &self.table.options {
                if key == bucket_key || key.starts_with("table.datalake.") {
                    continue;
                }
                let mut t = self.table.clone();
                t.options.retain(|(k, _)| k != key);
                out.extend(self.with_table(t, |ops| ops.to_vec()));
            }
            for (i, (name, _)) in self.shape.columns.iter().enumerate() {
                let named = self.shape.key.contains(&i)
                    || self.table.partition_keys.contains(name)
                    || self
                        .table
                        .options
                        .iter()
                        .any(|(k, v)| option_names_column(k, v, name));
                if named || self.shape.columns.len() < 2 {
                    continue;
                }
                let mut t = self.table.clone();
                t.columns.retain(|c| c.name != *name);
                out.extend(self.with_table(t, |ops| {
                    ops.iter()
                        .map(|op| {
                            let mut op = op.clone();
                            op.values.remove(i);
                            op
                        })
                        .collect()
                }));
            }
        }
        out
    }

    /// This case on another table: rendered, checked and opened as a user's DDL would be.
    fn with_table(&self, table: CreateTable, ops: impl Fn(&[Op]) -> Vec<Op>) -> Option<Proof> {
        let sql = table.canonical_sql().ok()?;
        let (table, shape, merge) = checked_table(&sql, self.target).ok()?;
        let mut p = Self::with_ops(table, shape, merge, self.target, ops(&self.ops)).ok()?;
        p.promise = self.promise.clone();
        Some(p)
    }

    fn with_workload(&self, ops: Vec<Op>) -> Result<Proof> {
        let mut p = Self::with_ops(
            self.table.clone(),
            self.shape.clone(),
            self.merge.clone(),
            self.target,
            ops,
        )?;
        if let Some((shape, merge)) = &self.promise {
            merge.check_ops(shape, &p.ops)?;
        }
        p.promise = self.promise.clone();
        Ok(p)
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

    /// The workload as statements, each with a label for progress and messages. With one
    /// operation a statement (the contract; the exercise's `upsert_inserts` text for its `(id INT,
    /// bal INT)` table) they are the workload in order. With more, the operations go in windows:
    /// a window's upserts as one `INSERT … VALUES`, then its deletes as one `DELETE … WHERE key =
    /// … OR …`, at most `rows_per_insert` of each. Every key's operations keep their order — a
    /// window closes before an upsert of a key it deletes — while operations on different keys
    /// may commit in another order than written: no merge engine relates two keys.
    ///
    /// Flink plans a `VALUES` whose rows hold expressions (the casts most types need) as a union
    /// of one-row inputs, which does not keep their order, so such a window never writes one key
    /// twice (found by the random all-types proof, where the earlier write won). A table of INT
    /// columns only is written as Flink keeps order: a `VALUES` of bare literals with a NULL flag
    /// per nullable column, one projection turning the flag into NULL (proved on real Paimon: 500
    /// writes to 3 keys in one statement, last wins).
    pub fn statements(&self, rows_per_insert: usize) -> Result<Vec<(String, String)>> {
        let per_insert = rows_per_insert.max(1);
        let flagged = per_insert > 1
            && self
                .shape
                .columns
                .iter()
                .all(|(_, ty)| *ty == DataType::Int);
        let mut sql = Vec::new();
        let mut window = Window::default();
        for (n, op) in self.ops.iter().enumerate() {
            if let (OpKind::Delete, Some(why)) = (op.kind, &self.merge.sql_deletes_refused) {
                return Err(TierproofError::InvalidInput(format!(
                    "operation {} is a delete: {why}; write it with the Fluss client (--producer client)",
                    n + 1
                )));
            }
            // Every value is checked as a literal here, so a failure names its operation.
            let literals = self.shape.literals(&op.values).map_err(|e| {
                TierproofError::InvalidInput(format!("operation {}: {}", n + 1, e.detail()))
            })?;
            let key: CanonRow = if self.keyed() {
                let row = canon(&self.shape, &op.values);
                self.shape.key.iter().map(|&k| row[k].clone()).collect()
            } else {
                CanonRow::new()
            };
            match op.kind {
                OpKind::Upsert => {
                    let repeated = self.keyed() && !flagged && window.upserted.contains(&key);
                    if repeated || window.deleted.contains(&key) {
                        window.flush(self, flagged, &mut sql);
                    }
                    if self.keyed() {
                        window.upserted.insert(key);
                    }
                    window.upserts.push(&op.values);
                }
                OpKind::Delete => {
                    // A second delete of a key in one window changes nothing: it is left out.
                    if window.deleted.insert(key) {
                        let conditions: Vec<String> = self
                            .shape
                            .key
                            .iter()
                            .map(|&k| {
                                format!(
                                    "{} = {}",
                                    quote_ident(&self.shape.columns[k].0),
                                    literals[k]
                                )
                            })
                            .collect();
                        window.deletes.push(conditions.join(" AND "));
                    }
                }
            }
            if window.upserts.len() >= per_insert || window.deletes.len() >= per_insert {
                window.flush(self, flagged, &mut sql);
            }
        }
        window.flush(self, flagged, &mut sql);
        let total = sql.len();
        Ok(sql
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let kind = if s.starts_with("DELETE") {
                    "DELETE"
                } else {
                    "INSERT"
                };
                (format!("{kind} {} of {total}", i + 1), s)
            })
            .collect())
    }

    /// `INSERT INTO t VALUES (…), (…)`: each value a literal of exactly its column's type.
    fn literal_insert(&self, rows: &[&[Value]]) -> String {
        let rows: Vec<String> = rows
            .iter()
            .map(|values| {
                // Checked by the caller, operation by operation.
                let literals = self.shape.literals(values).unwrap_or_default();
                format!("({})", literals.join(", "))
            })
            .collect();
        format!(
            "INSERT INTO {} VALUES {}",
            self.table.path.quoted(),
            rows.join(", ")
        )
    }

    /// `INSERT INTO t SELECT c0, IF(n1, CAST(NULL AS INT), c1) FROM (VALUES (1, 0, TRUE), …) AS
    /// upserts(c0, c1, n1)`: bare INT literals only, so Flink keeps the rows' order.
    fn flagged_insert(&self, rows: &[&[Value]]) -> String {
        let nullable: Vec<usize> = (0..self.shape.columns.len())
            .filter(|&i| !self.shape.not_null[i])
            .collect();
        let select: Vec<String> = (0..self.shape.columns.len())
            .map(|i| {
                if nullable.contains(&i) {
                    format!("IF(`n{i}`, CAST(NULL AS INT), `c{i}`)")
                } else {
                    format!("`c{i}`")
                }
            })
            .collect();
        let mut aliases: Vec<String> = (0..self.shape.columns.len())
            .map(|i| format!("`c{i}`"))
            .collect();
        aliases.extend(nullable.iter().map(|i| format!("`n{i}`")));
        let rows: Vec<String> = rows
            .iter()
            .map(|values| {
                let mut cells: Vec<String> = values
                    .iter()
                    .map(|v| match v {
                        Value::Int(i) => i.to_string(),
                        _ => "0".to_string(),
                    })
                    .collect();
                cells.extend(nullable.iter().map(|&i| {
                    (if values[i] == Value::Null {
                        "TRUE"
                    } else {
                        "FALSE"
                    })
                    .to_string()
                }));
                format!("({})", cells.join(", "))
            })
            .collect();
        format!(
            "INSERT INTO {} SELECT {} FROM (VALUES {}) AS `upserts`({})",
            self.table.path.quoted(),
            select.join(", "),
            rows.join(", "),
            aliases.join(", ")
        )
    }

    /// The sentinel's `INSERT`, its commit carrying `watermark` (Paimon's `end-input.watermark`).
    pub fn sentinel_insert(&self, watermark: i64) -> Result<String> {
        Ok(format!(
            "INSERT INTO {} /*+ OPTIONS({}={}) */ VALUES ({})",
            self.table.path.quoted(),
            quote_literal("end-input.watermark"),
            quote_literal(&watermark.to_string()),
            self.shape.literals(&self.sentinel)?.join(", ")
        ))
    }

    /// `SELECT` every column, with the given read options as a hint.
    pub fn select_all(&self, options: &[(String, String)]) -> String {
        let columns: Vec<String> = self
            .shape
            .columns
            .iter()
            .map(|(c, _)| quote_ident(c))
            .collect();
        let mut sql = format!(
            "SELECT {} FROM {}",
            columns.join(", "),
            self.table.path.quoted()
        );
        if !options.is_empty() {
            let o: Vec<String> = options
                .iter()
                .map(|(k, v)| format!("{}={}", quote_literal(k), quote_literal(v)))
                .collect();
            sql.push_str(&format!(" /*+ OPTIONS({}) */", o.join(", ")));
        }
        sql
    }

    /// The sentinel's value in its column, as canonical text.
    fn sentinel_text(&self) -> Option<String> {
        let col = self.sentinel_column;
        (self.sentinel[col] != Value::Null)
            .then(|| self.sentinel[col].canonical(self.shape.columns[col].1))
    }

    /// A read about to stream in, judged with the strictness its source promises (the rules
    /// per kind are [`Fold`]'s): a snapshot as a set; a lake replay as a complete changelog
    /// where the table's producer makes one, write by write where it streams every write, else
    /// as raw writes; Fluss's log as a complete changelog. A table without a key: a multiset,
    /// whatever the source.
    pub fn new_read(&self, name: &str, source: Source) -> PendingRead {
        let mode = match (self.keyed(), source) {
            (false, _) => Fold::Multiset,
            (true, Source::Snapshot) => Fold::Snapshot,
            (true, Source::Replay) if self.merge.complete_changelog => Fold::Changelog,
            (true, Source::Replay)
                if self.merge.replay_shows_every_write && self.promise.is_none() =>
            {
                Fold::Writes
            }
            (true, Source::Replay) => Fold::Upserts,
            (true, Source::Log) => Fold::Changelog,
        };
        // Building what a write-by-write stream must show is judging too: its CPU time counts.
        let started = thread_cpu_time();
        let folder = if mode == Fold::Writes {
            let writes = self
                .writes
                .get_or_init(|| Arc::new(writes_per_key(&self.shape, &self.ops)));
            Folder::of_writes(Arc::clone(writes))
        } else {
            Folder::new(mode)
        };
        let fold_time = thread_cpu_time().saturating_sub(started);
        PendingRead::fresh(name, folder, None, self.sentinel_text(), fold_time)
    }

    /// The table's view reads ([`super::view`]): a count, a filter on a key and on a partition,
    /// a projection.
    pub fn view_queries(&self) -> Result<Vec<ViewQuery>> {
        view_queries(
            &self.shape,
            &partition_columns(&self.table, &self.shape),
            &self.ops,
            &self.table.path.quoted(),
            |op, c| op.values[c].sql_literal(self.shape.columns[c].1),
        )
    }

    /// A view read about to stream in (a batch query, folded as a set when its columns keep the
    /// key, else as a multiset), judged against the same view of the expected state.
    pub fn new_view_read(&self, name: &str, view: View) -> PendingRead {
        let shape = view.shape(&self.shape);
        let mode = if shape.key.is_empty() {
            Fold::Multiset
        } else {
            Fold::Snapshot
        };
        let folder = Folder::new(mode);
        PendingRead::fresh(
            name,
            folder,
            Some((view, shape)),
            None,
            std::time::Duration::ZERO,
        )
    }

    /// A read about to stream in that is judged partition by partition (see
    /// [`super::partition`]): its changes go to `partitions` files in `dir` as they come.
    /// Refused for a read that must show the workload's writes one by one (it needs them all).
    pub fn new_spilled_read(
        &self,
        name: &str,
        source: Source,
        dir: &std::path::Path,
        partitions: u32,
    ) -> Result<PendingRead> {
        let mut read = self.new_read(name, source);
        if read.folder.mode() == Fold::Writes {
            return Err(TierproofError::InvalidInput(format!(
                "read {name}: a replay checked write by write cannot be judged partition by partition"
            )));
        }
        read.spill = Some(Spill::create(
            dir,
            name,
            partitions,
            read.folder.mode() == Fold::Multiset,
        )?);
        Ok(read)
    }

    /// One change of `read`, as text cells in column order: typed, the sentinel's left out, and
    /// folded at once (a read is never held whole).
    pub fn push<S: AsRef<str> + std::fmt::Debug>(
        &self,
        read: &mut PendingRead,
        kind: RowKind,
        cells: &[Option<S>],
    ) {
        self.accept(read, kind, cells);
        read.fold_batch();
    }

    /// One change of `read`, typed and packed into its batch (or its spill), the sentinel's and
    /// the unreadable left out; folded with the rest of the batch by [`PendingRead::fold_batch`].
    fn accept<S: AsRef<str> + std::fmt::Debug>(
        &self,
        read: &mut PendingRead,
        kind: RowKind,
        cells: &[Option<S>],
    ) {
        // Its position in the read, the sentinel's rows counted: what an anomaly names.
        let index = (read.changes + read.sentinels) as usize;
        let shape = read.view.as_ref().map_or(&self.shape, |(_, s)| s);
        if !read.packer.texts(shape, cells) {
            read.changes += 1;
            // A read judged partition by partition keeps the first of them, and counts the rest.
            if read.spill.is_some() && read.unreadable.len() >= LISTED_ANOMALIES {
                read.unreadable_left_out += 1;
                return;
            }
            let why = match shape.parse_row(cells) {
                Err(e) => e.detail(),
                Ok(_) => "a cell is not a value of its column's type".to_string(),
            };
            read.unreadable.push(unreadable(index, kind, cells, &why));
            return;
        }
        // A view read is a batch query with no sentinel commit to leave out.
        let col = self.sentinel_column;
        if read.view.is_none()
            && read
                .sentinel
                .as_deref()
                .is_some_and(|s| read.packer.cell_is(col, Some(s)))
        {
            read.sentinels += 1;
            return;
        }
        read.changes += 1;
        match read.spill.as_mut() {
            Some(spill) => spill.push(index, kind, read.packer.key(), read.packer.row()),
            None => read
                .batch
                .push(index, kind, read.packer.key(), read.packer.row()),
        }
    }

    /// A batch of `read`'s changes in the wire format ([`super::wire`]), each pushed as it is
    /// decoded; the time it takes counts as the read's folding.
    pub fn push_batch(&self, read: &mut PendingRead, batch: &[u8]) -> Result<()> {
        let started = thread_cpu_time();
        let width = read.width(&self.shape);
        // The batch's changes are packed first and folded together: the fold can then look up
        // many keys at once instead of waiting on memory for each in turn.
        let pushed = for_each_change(batch, width, |kind, cells| {
            let index = (read.changes + read.sentinels) as usize;
            self.accept(
                read,
                RowKind::from_code(index, i32::from(kind as i8))?,
                cells,
            );
            Ok(())
        });
        read.fold_batch();
        read.fold_time += thread_cpu_time().saturating_sub(started);
        pushed
    }

    /// Judges whole reads (tests and small callers); see [`Self::judge_folded`].
    pub fn judge(&self, reads: Vec<ReadInput>) -> Verdict {
        let pending: Vec<PendingRead> = reads
            .into_iter()
            .map(|r| {
                let mut p = self.new_read(&r.name, r.source);
                for (kind, cells) in &r.changes {
                    self.push(&mut p, *kind, cells);
                }
                p
            })
            .collect();
        self.judge_folded(&pending.iter().collect::<Vec<_>>())
    }

    /// Judges reads that streamed in, in the order given: each against the expected state and
    /// against the first. The sentinel's changes were left out as they came.
    pub fn judge_folded(&self, reads: &[&PendingRead]) -> Verdict {
        self.judge_folded_with(reads, Vec::new())
    }

    /// As [`Self::judge_folded`], with what failed outside the reads' rows: writes the server did
    /// not acknowledge, reads that errored or never ended. Any of them makes the verdict
    /// inconsistent, whatever the reads hold.
    pub fn judge_folded_with(&self, reads: &[&PendingRead], failures: Vec<String>) -> Verdict {
        let promise = match &self.promise {
            Some((shape, merge)) => merge.promise(shape),
            None => self.merge.promise(&self.shape),
        };
        self.judge_against(self.expected(), promise, true, reads, failures)
    }

    /// Judges reads of a table tierproof did not write (an audit): with no workload to say what
    /// it must hold, the first read is the reference (its rows are the expected state); each read
    /// is still folded by its own source's rules and must equal it.
    pub fn judge_against_first(&self, reads: &[&PendingRead], failures: Vec<String>) -> Verdict {
        let (expected, promise) = match reads.first() {
            Some(first) if first.view.is_none() => (
                first.folder.finish().rows,
                format!("what the first read ({}) holds: the table was written by someone else, so no workload says what it must hold", first.name),
            ),
            Some(_) => (Vec::new(), "nothing: the first read is a view".to_string()),
            None => (Vec::new(), "nothing: no read to judge by".to_string()),
        };
        // The expected state is the first read: comparing with the first again would say it twice.
        self.judge_against(expected, promise, false, reads, failures)
    }

    /// Judges each read against `expected` and, when `with_first`, each later read against the
    /// first.
    fn judge_against(
        &self,
        expected: Vec<CanonRow>,
        promise: String,
        with_first: bool,
        reads: &[&PendingRead],
        failures: Vec<String>,
    ) -> Verdict {
        // A read holding exactly the expected rows is the common case: found on packed bytes,
        // and said in the verdict without unpacking or repeating its rows.
        let packed: Vec<Packed> = expected.iter().map(pack).collect();
        let mut expected_packed: Vec<&[u8]> = packed.iter().map(|p| &p[..]).collect();
        expected_packed.sort_unstable();
        let mut judged = Vec::new();
        for read in reads {
            let exact = read.view.is_none() && read.folder.holds_exactly(&expected_packed);
            let Folded {
                rows,
                anomalies,
                update_after_rows,
            } = read.folder.finish_with(!exact);
            let notes = if update_after_rows > 0 {
                vec![update_after_note(update_after_rows)]
            } else {
                Vec::new()
            };
            let mut out_anomalies = read.unreadable.clone();
            out_anomalies.extend(anomalies.into_iter().map(|a| AnomalyOut {
                index: a.index,
                change: a.change,
                reason: a.reason,
            }));
            judged.push(ReadVerdict {
                name: read.name.clone(),
                changes: read.changes,
                row_count: if exact { expected.len() } else { rows.len() },
                rows: (!exact).then_some(rows),
                anomalies: out_anomalies,
                notes,
                consistent: false,
                reason: String::new(),
                fold_ms: read.fold_time.as_millis() as u64,
            });
        }
        // One check against the expected state per read, then one per later read against the
        // first; and each read's own verdict from its two, so the harness never re-decides it.
        // A view read is compared with the same view of the expected state and of the first read.
        let views: Vec<Option<&View>> = reads
            .iter()
            .map(|r| r.view.as_ref().map(|(v, _)| v))
            .collect();
        // What a read sees of `rows`: all of them, or its view of them.
        fn seen<'a>(view: Option<&View>, rows: &'a [CanonRow]) -> std::borrow::Cow<'a, [CanonRow]> {
            match view {
                Some(v) => v.apply(rows).into(),
                None => rows.into(),
            }
        }
        fn rows_of<'a>(r: &'a ReadVerdict, expected: &'a [CanonRow]) -> &'a [CanonRow] {
            r.rows.as_deref().unwrap_or(expected)
        }
        let vs_expected: Vec<Check> = judged
            .iter()
            .enumerate()
            .map(|(i, r)| match &r.rows {
                None => check("expected", &[], &r.name, &[]),
                Some(rows) => check("expected", &seen(views[i], &expected), &r.name, rows),
            })
            .collect();
        let vs_first: Vec<Check> = match judged.split_first() {
            Some((first, rest)) if with_first && views[0].is_none() => rest
                .iter()
                .enumerate()
                .map(|(j, r)| match (&first.rows, &r.rows) {
                    (None, None) => check(&first.name, &[], &r.name, &[]),
                    _ => check(
                        &first.name,
                        &seen(views[j + 1], rows_of(first, &expected)),
                        &r.name,
                        rows_of(r, &expected),
                    ),
                })
                .collect(),
            _ => Vec::new(),
        };
        for (i, read) in judged.iter_mut().enumerate() {
            let mut why = Vec::new();
            let e = &vs_expected[i];
            if !e.equal {
                why.push(format!(
                    "differs from the expected state (missing {}, extra {})",
                    e.missing.len(),
                    e.extra.len()
                ));
            }
            if let Some(c) = i.checked_sub(1).and_then(|j| vs_first.get(j)) {
                if !c.equal {
                    why.push(format!("differs from {}", c.left));
                }
            }
            if let Some(a) = read.anomalies.first() {
                why.push(format!(
                    "{} anomalies, first: {} {}",
                    read.anomalies.len(),
                    a.change,
                    a.reason
                ));
            }
            read.consistent = why.is_empty();
            read.reason = why.join("; ");
        }
        let mut checks = vs_expected;
        checks.extend(vs_first);
        let consistent = checks.iter().all(|c| c.equal)
            && judged.iter().all(|r| r.anomalies.is_empty())
            && failures.is_empty();
        Verdict {
            consistent,
            keyed: self.keyed(),
            promise,
            columns: self.shape.columns.iter().map(|(c, _)| c.clone()).collect(),
            expected_row_count: expected.len(),
            all_rows: true,
            expected_rows: expected,
            reads: judged,
            checks,
            failures,
        }
    }
}

/// What a read whose snapshot result held `n` update-after rows is told.
pub(super) fn update_after_note(n: u64) -> String {
    format!(
        "{n} of its rows came as update-after (+U) in a snapshot (batch) result, which Paimon's source declares insert-only; the rows are right and counted (docs/findings/paimon-1.3-batch-update-after.md)"
    )
}

/// The CPU time the calling thread has used so far.
pub(super) fn thread_cpu_time() -> std::time::Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given, which lives for the call.
    if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } != 0 {
        return std::time::Duration::ZERO;
    }
    std::time::Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// A read streaming in: its changes folded as they come, and the ones that could not be read.
#[derive(Debug)]
pub struct PendingRead {
    pub name: String,
    /// The changes read, the sentinel's left out.
    pub changes: u64,
    /// The sentinel's rows read (a streaming replay reads the commit that ends it).
    sentinels: u64,
    pub(super) folder: Folder,
    pub(super) unreadable: Vec<AnomalyOut>,
    /// Of a spilled read: its unreadable changes beyond the first [`LISTED_ANOMALIES`], counted.
    pub(super) unreadable_left_out: u64,
    /// For a view read: what it returns, and the columns it returns them in.
    view: Option<(View, Shape)>,
    /// For a read judged partition by partition ([`super::partition`]): where its changes go
    /// instead of the fold.
    pub(super) spill: Option<Spill>,
    /// Packs each change as it comes.
    packer: Packer,
    /// Changes packed and not folded yet: a batch's, folded together at its end.
    batch: PackedBatch,
    /// The sentinel's canonical cell in its column (none for a view read).
    sentinel: Option<String>,
    /// CPU time spent decoding and folding its batches (CPU, not wall time: reads fold side by
    /// side and must not count the time they wait for each other).
    pub(super) fold_time: std::time::Duration,
}

impl PendingRead {
    /// A read of the same name folded the same way, with nothing in it yet and nowhere to
    /// spill: what one partition of a spilled read is folded into.
    pub(super) fn empty_like(&self) -> PendingRead {
        let folder = Folder::new(self.folder.mode());
        PendingRead::fresh(&self.name, folder, None, None, std::time::Duration::ZERO)
    }

    /// A read with nothing in it yet, folding into `folder`.
    fn fresh(
        name: &str,
        folder: Folder,
        view: Option<(View, Shape)>,
        sentinel: Option<String>,
        fold_time: std::time::Duration,
    ) -> PendingRead {
        PendingRead {
            name: name.to_string(),
            changes: 0,
            sentinels: 0,
            folder,
            unreadable: Vec::new(),
            unreadable_left_out: 0,
            view,
            packer: Packer::default(),
            batch: PackedBatch::default(),
            spill: None,
            sentinel,
            fold_time,
        }
    }

    /// Folds the changes packed since the last time.
    fn fold_batch(&mut self) {
        if !self.batch.is_empty() {
            self.folder.push_batch(&self.batch);
            self.batch.clear();
        }
    }

    /// Whether its changes go to disk, to be judged partition by partition.
    pub fn spilled(&self) -> bool {
        self.spill.is_some()
    }

    /// How many columns each of its changes has: the table's, or its view's.
    pub fn width(&self, table: &Shape) -> usize {
        self.view
            .as_ref()
            .map_or(table.columns.len(), |(_, s)| s.columns.len())
    }
}

/// A change the reader returned that tierproof cannot read, as an anomaly at `index`.
fn unreadable<S: AsRef<str> + std::fmt::Debug>(
    index: usize,
    kind: RowKind,
    cells: &[Option<S>],
    why: &str,
) -> AnomalyOut {
    AnomalyOut {
        index,
        change: format!("{}{:?}", kind.short(), cells),
        reason: format!("the reader returned a value tierproof cannot read: {why}"),
    }
}

/// A read as the harness collected it: its name, its source, and its changes as (kind, text cells
/// in column order; `None` is NULL).
#[derive(Debug, Clone)]
pub struct ReadInput {
    pub name: String,
    pub source: Source,
    pub changes: Vec<(RowKind, Vec<Option<String>>)>,
}

/// The verdict over general rows (cells in canonical text).
#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub consistent: bool,
    pub keyed: bool,
    /// What the expected state is, in words ("the last write per key", ...).
    pub promise: String,
    pub columns: Vec<String>,
    pub expected_rows: Vec<CanonRow>,
    /// How many rows the expected state holds (`expected_rows`'s length when it holds them).
    pub expected_row_count: usize,
    /// Whether the verdict holds every row: false when the reads were judged partition by
    /// partition ([`super::partition`]); then `expected_rows` and each read's `rows` are left
    /// out (their counts stay) and each check lists only its first differences.
    pub all_rows: bool,
    pub reads: Vec<ReadVerdict>,
    pub checks: Vec<Check>,
    /// What failed outside the reads' rows (writes the server did not acknowledge, reads that
    /// errored or never ended): each a finding.
    pub failures: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ReadVerdict {
    pub name: String,
    pub changes: u64,
    /// The rows it folded to; `None` (null) when they are exactly the expected rows, which the
    /// verdict then holds once (`expected_rows`), not once per read.
    pub rows: Option<Vec<CanonRow>>,
    pub row_count: usize,
    pub anomalies: Vec<AnomalyOut>,
    /// What is worth knowing but does not make the read wrong (a known finding's trace).
    pub notes: Vec<String>,
    /// Equal to the expected state and to the first read, without anomalies.
    pub consistent: bool,
    /// Why not, when not.
    pub reason: String,
    /// CPU milliseconds spent decoding and folding its changes as they streamed in (and, for a
    /// write-by-write stream, building the writes it must show, once per workload).
    pub fold_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct AnomalyOut {
    pub index: usize,
    pub change: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub left: String,
    pub right: String,
    pub equal: bool,
    pub missing: Vec<CanonRow>,
    pub extra: Vec<CanonRow>,
    /// How many differences (missing and extra rows) are not listed: none unless judged
    /// partition by partition.
    pub left_out: usize,
}

fn check(left: &str, left_rows: &[CanonRow], right: &str, right_rows: &[CanonRow]) -> Check {
    let (missing, extra) = diff(left_rows, right_rows);
    Check {
        left: left.to_string(),
        right: right.to_string(),
        equal: missing.is_empty() && extra.is_empty(),
        missing,
        extra,
        left_out: 0,
    }
}

/// Candidate values of a type, for a sentinel: simple ones first, none of them NaN or -0.0.
fn candidates(ty: DataType, n: usize) -> Vec<Value> {
    let ints = |lo: i64, hi: i64| (lo..=hi).take(n).map(Value::Int).collect::<Vec<_>>();
    let count = |limit: u64| 0..limit.min(n as u64);
    match ty {
        DataType::Boolean => vec![Value::Bool(true), Value::Bool(false)],
        DataType::TinyInt => ints(i8::MIN as i64, i8::MAX as i64),
        DataType::SmallInt => ints(-150, i16::MAX as i64),
        DataType::Int => ints(-150, i32::MAX as i64),
        DataType::BigInt => ints(-150, i64::MAX),
        DataType::Float | DataType::Double => count(1 << 24)
            .map(|i| Value::Float(i as f64 + 0.5))
            .collect(),
        DataType::Decimal(p, s) => count(10u64.saturating_pow(u32::from(p - s)))
            .map(|i| Value::Decimal {
                unscaled: i128::from(i) * 10i128.pow(u32::from(s)),
                scale: s,
            })
            .collect(),
        DataType::Char(len) | DataType::VarChar(len) if len < 2 => (0x21..=0x7eu8)
            .rev()
            .take(n)
            .map(|c| Value::Text(char::from(c).to_string()))
            .collect(),
        DataType::Char(len) | DataType::VarChar(len) => count(u64::MAX)
            .map(|i| format!("~{i}"))
            .take_while(|s| s.chars().count() <= len as usize)
            .map(Value::Text)
            .collect(),
        DataType::Binary(len) | DataType::VarBinary(len) => (0..=255u8)
            .rev()
            .take(n)
            .map(|b| Value::Bytes(vec![b; (len as usize).min(1)]))
            .collect(),
        DataType::Date => count(1_000_000).map(|d| Value::Date(d as i32)).collect(),
        DataType::Time(_) => count(86_400)
            .map(|s| Value::Time(s * 1_000_000_000))
            .collect(),
        DataType::Timestamp(_) | DataType::TimestampLtz(_) => count(u64::MAX)
            .map(|s| Value::Timestamp(s as i64, 0))
            .collect(),
    }
}

/// A value for a column that must not be NULL and whose value does not matter.
fn filler(ty: DataType) -> Value {
    candidates(ty, 1).into_iter().next().unwrap_or(Value::Null)
}

/// The operations of one window of statements: its upserts (one `INSERT`), its deletes' key
/// conditions (one `DELETE`), and the keys each touched.
#[derive(Default)]
struct Window<'a> {
    upserts: Vec<&'a [Value]>,
    deletes: Vec<String>,
    upserted: std::collections::HashSet<CanonRow>,
    deleted: std::collections::HashSet<CanonRow>,
}

impl Window<'_> {
    /// Its statements, upserts first (a key is deleted in a window only after its upsert), then
    /// an empty window.
    fn flush(&mut self, proof: &Proof, flagged: bool, sql: &mut Vec<String>) {
        if !self.upserts.is_empty() {
            sql.push(if flagged {
                proof.flagged_insert(&self.upserts)
            } else {
                proof.literal_insert(&self.upserts)
            });
        }
        if !self.deletes.is_empty() {
            let condition = if self.deletes.len() == 1 {
                self.deletes[0].clone()
            } else {
                let each: Vec<String> = self.deletes.iter().map(|d| format!("({d})")).collect();
                each.join(" OR ")
            };
            sql.push(format!(
                "DELETE FROM {} WHERE {condition}",
                proof.table.path.quoted()
            ));
        }
        *self = Window::default();
    }
}

/// The positions of the table's partition columns.
fn partition_columns(table: &CreateTable, shape: &Shape) -> Vec<usize> {
    shape
        .columns
        .iter()
        .enumerate()
        .filter(|(_, (name, _))| table.partition_keys.iter().any(|p| p == name))
        .map(|(i, _)| i)
        .collect()
}

/// The positions of the table's partition columns of a text type.
fn partition_text_columns(table: &CreateTable, shape: &Shape) -> Vec<usize> {
    shape
        .columns
        .iter()
        .enumerate()
        .filter(|(_, (name, ty))| {
            table.partition_keys.iter().any(|p| p == name)
                && matches!(ty, DataType::Char(_) | DataType::VarChar(_))
        })
        .map(|(i, _)| i)
        .collect()
}

/// The sentinel row: in the first key column (or the first column, for a table without a key)
/// whose type has a value no operation uses, that value; elsewhere the first operation's key
/// values (valid for the table's partitions and constraints; a filler when there is none), NULL
/// or a filler.
fn choose_sentinel(shape: &Shape, ops: &[Op]) -> Result<(usize, Vec<Value>)> {
    let order: Vec<usize> = if shape.key.is_empty() {
        (0..shape.columns.len()).collect()
    } else {
        shape.key.clone()
    };
    for &col in &order {
        let ty = shape.columns[col].1;
        let used: std::collections::HashSet<String> =
            ops.iter().map(|op| op.values[col].canonical(ty)).collect();
        // One more candidate than values used: one of them is free, when the type has that many.
        if let Some(free) = candidates(ty, used.len() + 1)
            .into_iter()
            .find(|v| !used.contains(&v.canonical(ty)))
        {
            let row = shape
                .columns
                .iter()
                .enumerate()
                .map(|(i, (_, t))| {
                    if i == col {
                        free.clone()
                    } else if shape.key.contains(&i) {
                        // An empty workload (a cut before any write) has no first key to borrow.
                        ops.first()
                            .map_or_else(|| filler(*t), |op| op.values[i].clone())
                    } else if shape.not_null[i] {
                        filler(*t)
                    } else {
                        Value::Null
                    }
                })
                .collect();
            return Ok((col, row));
        }
    }
    Err(TierproofError::InvalidInput(
        "the workload uses every value of the table's key columns' types; no key is left for the sentinel commit".into(),
    ))
}

/// Whether a table option names a column: as a segment of its key (`fields.v.aggregate-function`)
/// or as one of its comma-separated values (`sequence.field` = `ts`, `bucket-key` = `a,b`).
fn option_names_column(key: &str, value: &str, column: &str) -> bool {
    key.split('.').any(|s| s == column) || value.split(',').any(|v| v.trim() == column)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DDL: &str =
        "CREATE TABLE ledger (region STRING, id BIGINT, amount DECIMAL(12, 2), note STRING, \
                       day DATE, PRIMARY KEY (region, id, day) NOT ENFORCED) PARTITIONED BY (day) \
                       WITH ('bucket' = '4')";
    const CSV: &str = "op,region,id,amount,note,day\n\
                       ,eu,1,10.50,first,2024-02-29\n\
                       ,eu,2,3,,2024-02-29\n\
                       delete,eu,2,,,2024-02-29\n\
                       ,us,1,7.25,\"a, b\",2024-03-01\n";

    fn cells(v: &[&str]) -> Vec<Option<String>> {
        v.iter()
            .map(|c| {
                if *c == "NULL" {
                    None
                } else {
                    Some(c.to_string())
                }
            })
            .collect()
    }

    /// Fluss names a partition by its value: generated text partition values are names Fluss
    /// takes, and a workload with one it does not is refused naming the operation.
    #[test]
    fn fluss_partition_values_are_names_fluss_takes() {
        let ddl = "CREATE TABLE t (k INT, p STRING, v INT, PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p)";
        let g = Proof::generate(Target::Fluss, ddl, 300, 40, 7, true).unwrap();
        assert!(g.ops.iter().all(|op| match &op.values[1] {
            Value::Text(t) => validate_fluss_name(t).is_ok(),
            _ => true,
        }));
        let e = Proof::open(Target::Fluss, ddl, "k,p,v\n1,a b,1\n".as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("operation 1: partition column p"), "{e}");
        assert!(Proof::open(Target::Paimon, ddl, "k,p,v\n1,a b,1\n".as_bytes()).is_ok());
        // A log table's partition column may be NULL in Paimon, never in Fluss.
        let log = "CREATE TABLE l (k INT, p INT, v INT) PARTITIONED BY (p)";
        let g = Proof::generate(Target::Fluss, log, 300, 40, 7, true).unwrap();
        assert!(g.ops.iter().all(|op| op.values[1] != Value::Null));
        let e = Proof::open(Target::Fluss, log, "k,p,v\n1,1,1\n2,,2\n".as_bytes())
            .unwrap_err()
            .to_string();
        assert!(e.contains("operation 2: partition column p is NULL"), "{e}");
    }

    /// A consistent cut holds exactly the writes chosen, in order: a delete left out leaves its
    /// key; positions out of order or past the end are refused, naming them.
    #[test]
    fn a_subset_is_the_state_of_the_chosen_writes() {
        let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
        let everything = p.expected().len();
        assert_eq!(everything, 2, "eu/2 is deleted");
        let without_delete = p.subset(&[0, 1, 3]).unwrap();
        assert_eq!(without_delete.expected().len(), 3);
        let first_two = p.subset(&[0, 1]).unwrap();
        assert_eq!(first_two.expected(), p.prefix(2).unwrap().expected());
        assert!(p.subset(&[]).unwrap().expected().is_empty());
        for bad in [&[1, 0][..], &[0, 0], &[4]] {
            let e = p.subset(bad).unwrap_err().to_string();
            assert!(e.contains("operation position"), "{e}");
        }
    }

    /// COUNT(*), filters and a projection are judged against the same view of the expected
    /// state: right answers pass, a wrong count or a filter that loses a row fails.
    #[test]
    fn view_reads_are_judged_against_the_same_view() {
        let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
        let queries = p.view_queries().unwrap();
        let names: Vec<&str> = queries.iter().map(|q| q.name.as_str()).collect();
        assert_eq!(
            names,
            ["count", "filter_key", "filter_partition", "projection"]
        );
        assert!(
            queries[0].sql.starts_with("SELECT COUNT(*) FROM"),
            "{}",
            queries[0].sql
        );
        assert!(
            queries[1]
                .sql
                .contains("WHERE `region` IN (CAST('eu' AS STRING), CAST('us' AS STRING))"),
            "{}",
            queries[1].sql
        );
        assert!(
            queries[2].sql.contains("WHERE `day` = "),
            "{}",
            queries[2].sql
        );
        assert!(
            queries[3]
                .sql
                .starts_with("SELECT `region`, `id`, `day` FROM"),
            "{}",
            queries[3].sql
        );
        // The state: (eu, 1, 2024-02-29) and (us, 1, 2024-03-01).
        let judge = |count: &str, eu_rows: usize| {
            let mut reads = Vec::new();
            let mut c = p.new_view_read("count", queries[0].view.clone());
            p.push(&mut c, RowKind::Insert, &cells(&[count]));
            reads.push(c);
            let mut f = p.new_view_read("filter_partition", queries[2].view.clone());
            for _ in 0..eu_rows {
                p.push(
                    &mut f,
                    RowKind::Insert,
                    &cells(&["eu", "1", "10.50", "first", "2024-02-29"]),
                );
            }
            reads.push(f);
            let mut k = p.new_view_read("projection", queries[3].view.clone());
            p.push(&mut k, RowKind::Insert, &cells(&["eu", "1", "2024-02-29"]));
            p.push(&mut k, RowKind::Insert, &cells(&["us", "1", "2024-03-01"]));
            reads.push(k);
            p.judge_folded(&reads.iter().collect::<Vec<_>>())
        };
        let right = judge("2", 1);
        assert!(right.consistent, "{:?}", right.reads);
        let wrong_count = judge("3", 1);
        assert!(!wrong_count.consistent && !wrong_count.reads[0].consistent);
        let lost = judge("2", 0);
        assert!(!lost.consistent && !lost.reads[1].consistent && lost.reads[2].consistent);
        let doubled = judge("2", 2);
        assert!(
            !doubled.reads[1].anomalies.is_empty(),
            "a key twice in a filtered snapshot"
        );
    }

    /// Shrinking tries smaller tables first: one bucket, no partitioning, a value column fewer
    /// (never a key, partition or option column), each with the same operations.
    #[test]
    fn smaller_tables_come_first() {
        let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
        let tables = p.smaller_tables();
        let ddls: Vec<String> = tables
            .iter()
            .map(|t| t.table.canonical_sql().unwrap())
            .collect();
        assert_eq!(tables.len(), 6, "{ddls:#?}");
        assert!(ddls[0].contains("'bucket' = '1'"), "{}", ddls[0]);
        assert!(!ddls[1].contains("PARTITIONED BY"), "{}", ddls[1]);
        assert!(ddls[2].contains("PRIMARY KEY (`id`, `day`)"), "{}", ddls[2]);
        assert!(
            ddls[3].contains("PRIMARY KEY (`region`, `day`)"),
            "{}",
            ddls[3]
        );
        assert!(
            !ddls[4].contains("`amount`")
                && ddls[5].contains("`amount`")
                && !ddls[5].contains("`note`")
        );
        assert!(tables.iter().all(|t| t.ops.len() == p.ops.len()));
        assert_eq!(tables[4].ops[0].values.len(), 4);
        // Fewer key columns: the two writes of eu/1 and us/1 are now one key's.
        assert_eq!(tables[2].shape.key.len(), 2);
        assert_eq!(
            p.shrink_candidate(0)
                .unwrap()
                .table
                .canonical_sql()
                .unwrap(),
            ddls[0]
        );
        // A key of the partition column alone is no candidate: the engines refuse it.
        let two = "CREATE TABLE t (k BIGINT, p INT, v INT, PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p)";
        let p2 = Proof::open(Target::Fluss, two, "k,p,v\n1,2,3\n".as_bytes()).unwrap();
        assert!(p2
            .smaller_tables()
            .iter()
            .all(|t| t.table.primary_key.len() == 2));
        let one_bucket = tables[0].clone();
        assert_eq!(one_bucket.smaller_tables().len(), 5, "no bucket step left");
    }

    /// What one ordered job writes for the workload: a delete carries the row it removes, a
    /// delete of an absent key writes nothing; tables where a delete is more than that refuse.
    #[test]
    fn as_written_deletes_carry_their_row() {
        let ddl = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)";
        let csv = "op,k,v\nupsert,1,10\ndelete,2,\nupsert,1,11\ndelete,1,\ndelete,1,\n";
        let p = Proof::open(Target::Paimon, ddl, csv.as_bytes()).unwrap();
        let w = p.as_written().unwrap();
        assert_eq!(w.ops.len(), 3);
        assert_eq!(w.ops[2].kind, OpKind::Delete);
        assert_eq!(
            w.operation_cells(2, 1)[1..],
            [Some("1".into()), Some("11".into())]
        );
        let agg = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH \
                   ('merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true')";
        let p = Proof::open(Target::Paimon, agg, csv.as_bytes()).unwrap();
        assert!(p.ordered_write_refused().is_some() && p.as_written().is_err());
        let upserts = Proof::open(Target::Paimon, agg, "k,v\n1,2\n".as_bytes()).unwrap();
        assert!(upserts.ordered_write_refused().is_none());
    }

    /// The sentinel's key is a value no operation uses, however many the workload uses: ten
    /// thousand INT keys from -150 up, a one-character key that has used up its values.
    #[test]
    fn a_sentinel_key_is_free_however_many_keys_are_used() {
        let mut csv = String::from("k,v\n");
        for k in -150..10_000 {
            csv.push_str(&format!("{k},1\n"));
        }
        let ddl = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)";
        let p = Proof::open(Target::Paimon, ddl, csv.as_bytes()).unwrap();
        let sql = p.sentinel_insert(7).unwrap();
        assert!(sql.contains("10000"), "{sql}");
        let one = "CREATE TABLE t (k CHAR(1), v INT, PRIMARY KEY (k) NOT ENFORCED)";
        let p = Proof::open(Target::Paimon, one, "k,v\n~,1\n".as_bytes()).unwrap();
        assert!(p.sentinel_insert(7).unwrap().contains("'}'"));
        let two = "CREATE TABLE t (k BOOLEAN, v INT, PRIMARY KEY (k) NOT ENFORCED)";
        let Err(err) = Proof::open(Target::Paimon, two, "k,v\ntrue,1\nfalse,2\n".as_bytes()) else {
            panic!("a BOOLEAN key with both values used leaves no sentinel key");
        };
        assert!(
            err.to_string().contains("no key is left for the sentinel"),
            "{err}"
        );
    }

    /// An option fewer is a smaller table too, but the datalake switch stays: without it the
    /// table would never tier, another case than the one being shrunk.
    #[test]
    fn smaller_tables_drop_options_but_keep_the_table_tiering() {
        let ddl = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '2', \
                   'table.merge-engine' = 'first_row', 'table.datalake.enabled' = 'true')";
        let p = Proof::open(Target::Fluss, ddl, "k,v\n1,2\n1,3\n".as_bytes()).unwrap();
        let ddls: Vec<String> = p
            .smaller_tables()
            .iter()
            .map(|t| t.table.canonical_sql().unwrap())
            .collect();
        assert_eq!(ddls.len(), 3, "{ddls:#?}");
        assert!(ddls
            .iter()
            .all(|d| d.contains("'table.datalake.enabled' = 'true'")));
        assert!(!ddls[1].contains("first_row") && ddls[1].contains("'bucket.num' = '2'"));
        assert!(!ddls[2].contains("`v`"), "{}", ddls[2]);
    }

    /// The exercise's contract: one statement per upsert on its table is `upsert_inserts`'s text.
    #[test]
    fn one_upsert_a_statement_is_the_exercises_text() {
        let ddl = crate::ddl::tier_table_ddl("accounts").unwrap();
        let csv = "id,bal\n1,100\n1,\n-3,-2147483648\n2147483647,0\n";
        let proof = Proof::open(Target::Paimon, &ddl, csv.as_bytes()).unwrap();
        let rows = [
            crate::Row::new(1, Some(100)),
            crate::Row::new(1, None),
            crate::Row::new(-3, Some(i32::MIN)),
            crate::Row::new(i32::MAX, Some(0)),
        ];
        let exercise = crate::upsert::upsert_inserts("accounts", &rows).unwrap();
        let ours: Vec<String> = proof
            .statements(1)
            .unwrap()
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(ours, exercise);
    }

    #[test]
    fn int_tables_batch_repeated_keys_in_one_ordered_values() {
        let ddl = "CREATE TABLE t (id INT NOT NULL, bal INT, PRIMARY KEY (id) NOT ENFORCED)";
        let csv = "id,bal\n1,5\n1,\n2,7\n1,9\n";
        let proof = Proof::open(Target::Paimon, ddl, csv.as_bytes()).unwrap();
        let s = proof.statements(10).unwrap();
        assert_eq!(s.len(), 1, "{s:?}");
        assert_eq!(
            s[0].1,
            "INSERT INTO `t` SELECT `c0`, IF(`n1`, CAST(NULL AS INT), `c1`) FROM (VALUES (1, 5, FALSE), \
             (1, 0, TRUE), (2, 7, FALSE), (1, 9, FALSE)) AS `upserts`(`c0`, `c1`, `n1`)"
        );
        assert_eq!(proof.statements(3).unwrap().len(), 2);
    }

    #[test]
    fn statements_keep_order_and_delete_by_key() {
        let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
        // One window: its three upserts, then its delete (eu 2 is written, then deleted).
        let s = p.statements(1000).unwrap();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].0, "INSERT 1 of 2");
        assert!(s[0].1.starts_with("INSERT INTO `ledger` VALUES (CAST('eu' AS STRING), CAST(1 AS BIGINT), CAST('10.50' AS DECIMAL(12, 2))"), "{}", s[0].1);
        assert!(s[0].1.contains("CAST('us' AS STRING)"), "{}", s[0].1);
        assert_eq!(
            s[1].1,
            "DELETE FROM `ledger` WHERE `region` = CAST('eu' AS STRING) AND `id` = CAST(2 AS BIGINT) AND `day` = CAST(DATE '2024-02-29' AS DATE)"
        );
        assert_eq!(s[1].0, "DELETE 2 of 2");
        // One operation a statement: the workload in order.
        let one: Vec<String> = p
            .statements(1)
            .unwrap()
            .into_iter()
            .map(|(l, _)| l)
            .collect();
        assert_eq!(
            one,
            [
                "INSERT 1 of 4",
                "INSERT 2 of 4",
                "DELETE 3 of 4",
                "INSERT 4 of 4"
            ]
        );
        // A key written twice starts a new window: one statement never writes it twice.
        let twice = Proof::open(
            Target::Paimon,
            DDL,
            format!("{CSV},eu,1,1,,2024-02-29\n").as_bytes(),
        )
        .unwrap();
        let s = twice.statements(1000).unwrap();
        assert_eq!(s.len(), 3);
        assert!(
            s[2].1.starts_with("INSERT") && s[2].1.matches("CAST('eu' AS STRING)").count() == 1
        );
        // An upsert of a key the window deletes starts a new one (its delete must come first);
        // two deletes of a window are one statement.
        let again = Proof::open(
            Target::Paimon,
            DDL,
            format!("{CSV}delete,us,1,,,2024-03-01\n,eu,2,4,,2024-02-29\n").as_bytes(),
        )
        .unwrap();
        let s: Vec<String> = again
            .statements(1000)
            .unwrap()
            .into_iter()
            .map(|(_, s)| s)
            .collect();
        assert_eq!(s.len(), 3, "{s:?}");
        assert!(
            s[1].starts_with("DELETE") && s[1].contains(") OR ("),
            "{}",
            s[1]
        );
        assert!(
            s[2].starts_with("INSERT") && s[2].contains("CAST(2 AS BIGINT)"),
            "{}",
            s[2]
        );
        // The sentinel's key is in no operation (its region is one no row uses); its partition
        // is a real one.
        assert_eq!(p.sentinel_column, 0);
        assert_eq!(p.sentinel[0], Value::Text("~0".into()));
        assert_eq!(p.sentinel[4], p.ops[0].values[4]);
        assert!(p
            .sentinel_insert(1000)
            .unwrap()
            .contains("/*+ OPTIONS('end-input.watermark'='1000') */"));
        assert_eq!(
            p.select_all(&[]),
            "SELECT `region`, `id`, `amount`, `note`, `day` FROM `ledger`"
        );
    }

    /// A read pushed a batch at a time (the harness's way, folded a batch at once) gets the
    /// verdict it gets pushed change by change: on a correct replay of every write and on ones
    /// with a change duplicated, dropped, moved, altered or foreign, wherever the batches end.
    #[test]
    fn a_read_in_batches_is_judged_as_change_by_change() {
        use super::super::wire::encode;
        let ddl = "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) \
                   WITH ('changelog-producer' = 'input')";
        let p = Proof::generate(Target::Paimon, ddl, 300, 9, 7, true).unwrap();
        assert_eq!(p.new_read("r", Source::Replay).folder.mode(), Fold::Writes);
        let mut state = std::collections::HashMap::new();
        let mut good: Vec<(RowKind, CanonRow)> = Vec::new();
        for op in &p.ops {
            let row = canon(&p.shape, &op.values);
            match op.kind {
                OpKind::Upsert => {
                    good.push((RowKind::Insert, row.clone()));
                    state.insert(row[0].clone(), row);
                }
                OpKind::Delete => {
                    if let Some(old) = state.remove(&row[0]) {
                        good.push((RowKind::Delete, old));
                    }
                }
            }
        }
        let foreign = vec![Some("100".to_string()), Some("x".to_string())];
        let mut variants = vec![good.clone()];
        for at in [0, 1, good.len() / 2, good.len() - 1] {
            let mut v = good.clone();
            v.insert(at, good[at].clone());
            variants.push(v);
            let mut v = good.clone();
            v.remove(at);
            variants.push(v);
            let mut v = good.clone();
            let moved = v.remove(at);
            v.insert((at + 5).min(v.len()), moved);
            variants.push(v);
            let mut v = good.clone();
            v[at].1[1] = Some("altered".to_string());
            variants.push(v);
            let mut v = good.clone();
            v.insert(at, (RowKind::Insert, foreign.clone()));
            variants.push(v);
        }
        let verdict = |read: PendingRead| {
            let mut v = p.judge_folded(&[&read]);
            v.reads.iter_mut().for_each(|r| r.fold_ms = 0);
            serde_json::to_string(&v).unwrap()
        };
        let mut inconsistent = 0;
        for (n, changes) in variants.iter().enumerate() {
            let mut one_by_one = p.new_read("r", Source::Replay);
            for (kind, row) in changes {
                p.push(&mut one_by_one, *kind, row);
            }
            let expected = verdict(one_by_one);
            // A change moved past other keys' only is still in its key's order: no anomaly.
            let consistent = expected.starts_with("{\"consistent\":true");
            assert!(consistent || n > 0, "the correct read: {expected}");
            inconsistent += usize::from(!consistent);
            for size in [1, 2, 7, 64, changes.len()] {
                let mut batched = p.new_read("r", Source::Replay);
                for chunk in changes.chunks(size) {
                    let mut bytes = Vec::new();
                    for (kind, row) in chunk {
                        let cells: Vec<Option<&str>> = row.iter().map(|c| c.as_deref()).collect();
                        encode(*kind as u8, &cells, &mut bytes);
                    }
                    p.push_batch(&mut batched, &bytes).unwrap();
                }
                assert_eq!(verdict(batched), expected, "variant {n}, batches of {size}");
            }
        }
        assert!(
            inconsistent >= 16,
            "{inconsistent} of {} variants seen",
            variants.len() - 1
        );
    }

    #[test]
    fn judges_reads_as_sets_and_streams_leaving_out_the_sentinel() {
        let p = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
        let good = vec![
            (
                RowKind::Insert,
                cells(&["eu", "1", "10.50", "first", "2024-02-29"]),
            ),
            (
                RowKind::Insert,
                cells(&["us", "1", "7.25", "a, b", "2024-03-01"]),
            ),
        ];
        let mut stream = good.clone();
        stream.push((
            RowKind::Insert,
            cells(&["eu", "2", "3.00", "NULL", "2024-02-29"]),
        ));
        stream.push((
            RowKind::Delete,
            cells(&["eu", "2", "3.00", "NULL", "2024-02-29"]),
        ));
        stream.push((
            RowKind::Insert,
            cells(&["~0", "1", "NULL", "NULL", "2024-02-29"]),
        ));
        let read = |name: &str, source, changes| ReadInput {
            name: name.into(),
            source,
            changes,
        };
        let v = p.judge(vec![
            read("batch", Source::Snapshot, good.clone()),
            read("streaming", Source::Replay, stream),
        ]);
        assert!(v.consistent, "{v:?}");
        assert_eq!(v.expected_rows.len(), 2);
        // The sentinel's row is left out of the changes too.
        assert_eq!(v.reads[1].changes, 4);
        // Rows exactly the expected ones are said once, in the expected rows.
        assert!(v.reads.iter().all(|r| r.rows.is_none() && r.row_count == 2));
        assert!(v.checks.iter().all(|c| c.equal));
        // A key returned twice by a batch read fails it, though the rows are equal.
        let mut twice = good.clone();
        twice.push(good[0].clone());
        let v = p.judge(vec![
            read("batch", Source::Snapshot, twice),
            read("streaming", Source::Replay, good.clone()),
        ]);
        assert!(!v.consistent);
        assert!(v.reads[0].anomalies[0].reason.contains("twice"));
        // A read's own anomalies do not make another read that holds the rows differ from it.
        assert!(v.reads[1].consistent && v.checks.iter().all(|c| c.equal));
        // A row that differs is a diff.
        let good_again = good.clone();
        let mut changed = good;
        changed[0] = (
            RowKind::Insert,
            cells(&["eu", "1", "10.51", "first", "2024-02-29"]),
        );
        let v = p.judge(vec![
            read("batch", Source::Snapshot, changed.clone()),
            read("streaming", Source::Replay, changed.clone()),
        ]);
        let changed_again = changed;
        assert!(!v.reads[0].consistent && !v.reads[1].consistent);
        assert_eq!(
            v.reads[1].reason,
            "differs from the expected state (missing 1, extra 1)"
        );
        assert_eq!(v.checks[0].missing[0][2].as_deref(), Some("10.50"));
        assert_eq!(v.checks[0].extra[0][2].as_deref(), Some("10.51"));
        // Rows that differ are carried, each read's own.
        assert_eq!(v.reads[0].rows.as_ref().map(Vec::len), Some(2));
        // One read exact, one not: the exact one is compared as the expected rows it holds.
        let v = p.judge(vec![
            read("batch", Source::Snapshot, good_again.clone()),
            read("streaming", Source::Replay, changed_again),
        ]);
        assert!(v.reads[0].consistent && v.reads[0].rows.is_none());
        assert!(!v.reads[1].consistent);
        assert_eq!(
            v.reads[1].reason,
            "differs from the expected state (missing 1, extra 1); differs from batch"
        );
        assert_eq!(v.checks[2].missing[0][2].as_deref(), Some("10.50"));
    }

    #[test]
    fn an_audit_judges_every_read_against_the_first() {
        let ddl = "CREATE TABLE t (k INT, v STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '2')";
        let p = Proof::of_table(Target::Fluss, ddl).unwrap();
        let read = |name: &str, source, changes: &[(RowKind, [&str; 2])]| ReadInput {
            name: name.into(),
            source,
            changes: changes.iter().map(|(k, c)| (*k, cells(c))).collect(),
        };
        use RowKind::*;
        let log = read(
            "fluss_log",
            Source::Log,
            &[
                (Insert, ["1", "a"]),
                (Insert, ["2", "b"]),
                (UpdateBefore, ["2", "b"]),
                (UpdateAfter, ["2", "c"]),
                (Insert, ["3", "x"]),
                (Delete, ["3", "x"]),
                (Insert, ["-150", "s"]),
            ],
        );
        let judge = |lake: &[(RowKind, [&str; 2])]| {
            let reads = vec![log.clone(), read("lake", Source::Snapshot, lake)];
            let pending: Vec<PendingRead> = reads
                .into_iter()
                .map(|r| {
                    let mut p2 = p.new_read(&r.name, r.source);
                    for (kind, c) in &r.changes {
                        p.push(&mut p2, *kind, c);
                    }
                    p2
                })
                .collect();
            p.judge_against_first(&pending.iter().collect::<Vec<_>>(), Vec::new())
        };
        let exact = [
            (Insert, ["2", "c"]),
            (Insert, ["1", "a"]),
            (Insert, ["-150", "s"]),
        ];
        let v = judge(&exact);
        assert!(v.consistent, "{v:?}");
        // Every row is judged, whatever its values: an audit leaves no sentinel's rows out.
        assert_eq!(
            v.expected_rows,
            vec![
                cells(&["-150", "s"]),
                cells(&["1", "a"]),
                cells(&["2", "c"])
            ]
        );
        assert!(!judge(&exact[..2]).consistent);
        // Each read is compared once, with the reference; not again with the first read (the same).
        assert_eq!(v.checks.len(), 2);
        assert!(v.promise.contains("fluss_log"));
        // The lake holding an older value of a key, or a key twice, is found.
        let v = judge(&[
            (Insert, ["2", "b"]),
            (Insert, ["1", "a"]),
            (Insert, ["-150", "s"]),
        ]);
        assert!(!v.consistent);
        assert_eq!(v.checks[1].missing, vec![cells(&["2", "c"])]);
        assert_eq!(v.checks[1].extra, vec![cells(&["2", "b"])]);
        let v = judge(&[
            (Insert, ["2", "c"]),
            (Insert, ["1", "a"]),
            (Insert, ["-150", "s"]),
            (Insert, ["1", "a"]),
        ]);
        assert!(!v.consistent && v.reads[1].anomalies[0].reason.contains("twice"));
    }

    #[test]
    fn a_generated_workload_writes_back_as_the_same_csv() {
        let p = Proof::generate(Target::Paimon, DDL, 300, 12, 5, true).unwrap();
        let csv = p.workload_csv();
        let back = Proof::open(Target::Paimon, DDL, csv.as_bytes()).unwrap();
        assert_eq!(back.ops, p.ops);
        assert!(p
            .statements(50)
            .unwrap()
            .iter()
            .any(|(l, _)| l.starts_with("DELETE")));
        let q = Proof::open(Target::Paimon, DDL, CSV.as_bytes()).unwrap();
        assert_eq!(
            Proof::open(Target::Paimon, DDL, q.workload_csv().as_bytes())
                .unwrap()
                .ops,
            q.ops
        );
    }

    #[test]
    fn an_append_table_judged_as_its_keyed_promise_shows_every_superseded_row() {
        let keyed = "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED)";
        let p = Proof::open_judged_as(
            Target::Paimon,
            "CREATE TABLE t (a INT, b INT)",
            keyed,
            b"a,b\n1,1\n1,2\n2,1\n",
        )
        .unwrap();
        assert_eq!(p.expected().len(), 2);
        let all = |v: &[&str]| {
            v.iter()
                .map(|r| {
                    let (a, b) = r.split_once(',').unwrap();
                    (
                        RowKind::Insert,
                        vec![Some(a.to_string()), Some(b.to_string())],
                    )
                })
                .collect::<Vec<_>>()
        };
        let v = p.judge(vec![ReadInput {
            name: "batch".into(),
            source: Source::Snapshot,
            changes: all(&["1,1", "1,2", "2,1"]),
        }]);
        assert!(!v.consistent);
        assert_eq!((v.checks[0].missing.len(), v.checks[0].extra.len()), (0, 1));
    }

    #[test]
    fn merge_engines_shape_the_workload_and_the_expected_state() {
        let first_row = "CREATE TABLE t (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('merge-engine' = 'first-row')";
        let p = Proof::open(Target::Paimon, first_row, b"a,b\n1,1\n1,2\n").unwrap();
        assert_eq!(
            p.merge.state(&p.shape, &p.ops),
            [vec![Some("1".to_string()), Some("1".to_string())]]
        );
        let e = Proof::open(Target::Paimon, first_row, b"op,a,b\ndelete,1,\n").unwrap_err();
        assert!(e.to_string().contains("operation 1 is a delete"), "{e}");
        // A generated workload leaves deletes out where the table refuses them.
        let g = Proof::generate(Target::Paimon, first_row, 500, 20, 3, true).unwrap();
        assert!(g.ops.iter().all(|op| op.kind == OpKind::Upsert));
        // Fluss: names Fluss accepts, and tiering on by default.
        let f = Proof::open(Target::Fluss, "CREATE TABLE orders (a INT, b INT, PRIMARY KEY (a) NOT ENFORCED) WITH ('bucket.num' = '4')", b"a,b\n1,1\n").unwrap();
        assert_eq!(f.table.option("table.datalake.enabled"), Some("true"));
        assert!(f
            .table
            .canonical_sql()
            .unwrap()
            .contains("'table.datalake.freshness' = '1s'"));
        for (ddl, word) in [
            ("CREATE TABLE `a b` (a INT, b INT)", "not allowed"),
            (
                "CREATE TABLE t (a INT, b INT) WITH ('table.datalake.enabled' = 'false')",
                "must be 'true'",
            ),
        ] {
            let e = Proof::open(Target::Fluss, ddl, b"a,b\n1,1\n")
                .unwrap_err()
                .to_string();
            assert!(e.contains(word), "{e}");
        }
    }
}
