//! Smaller proofs of the same table: renamed, a prefix or subset of the workload, and the
//! smaller tables a search shrinks a counterexample's to.

use super::*;
use crate::model::values::types::MAX_LENGTH;

impl Proof {
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
        let mut p = self.with_workload(self.ops[..n.min(self.ops.len())].to_vec())?;
        p.uncertain = self.uncertain.iter().copied().filter(|&u| u < n).collect();
        p.rejected = self.rejected.iter().copied().filter(|&u| u < n).collect();
        Ok(p)
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
    pub(super) fn with_table(
        &self,
        table: CreateTable,
        ops: impl Fn(&[Op]) -> Vec<Op>,
    ) -> Option<Proof> {
        let sql = table.canonical_sql().ok()?;
        let (table, shape, merge) = checked_table(&sql, self.target).ok()?;
        let mut p = Self::with_ops(table, shape, merge, self.target, ops(&self.ops)).ok()?;
        p.promise = self.promise.clone();
        Some(p)
    }

    /// The same workload with about `percent` % of its operations on one hot key (see
    /// [`crate::model::search::generate::make_hot`]); refused above 100.
    pub fn with_hot_keys(&self, percent: u32, seed: u64) -> Result<Proof> {
        let percent = u8::try_from(percent)
            .ok()
            .filter(|p| *p <= 100)
            .ok_or_else(|| {
                TierproofError::InvalidInput(format!(
                    "--hot-keys {percent} must be between 0 and 100 (the share of operations on one key, in %)"
                ))
            })?;
        let mut ops = self.ops.clone();
        crate::model::search::generate::make_hot(&mut ops, &self.shape.key, percent, seed);
        self.with_outcomes_kept(ops)
    }

    /// The same workload with about one in four values of its unbounded `STRING` columns (not
    /// a key or partition column) long: a kilobyte to a few hundred (see
    /// [`crate::model::search::generate::make_long_texts`]).
    pub fn with_long_texts(&self, seed: u64) -> Result<Proof> {
        let columns: Vec<usize> = (0..self.shape.columns.len())
            .filter(|&c| self.shape.columns[c].1 == DataType::VarChar(MAX_LENGTH))
            .filter(|c| !self.shape.key.contains(c))
            .filter(|&c| !self.table.partition_keys.contains(&self.shape.columns[c].0))
            .collect();
        let mut ops = self.ops.clone();
        crate::model::search::generate::make_long_texts(&mut ops, &columns, seed);
        self.with_outcomes_kept(ops)
    }

    /// The same proof with `ops` changed in place (one for one, so each position stays the same
    /// write): the writes of unknown outcome and the rejected ones stay marked.
    pub(super) fn with_outcomes_kept(&self, ops: Vec<Op>) -> Result<Proof> {
        let mut p = self.with_workload(ops)?;
        p.uncertain = self.uncertain.clone();
        p.rejected = self.rejected.clone();
        Ok(p)
    }

    pub(super) fn with_workload(&self, ops: Vec<Op>) -> Result<Proof> {
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
}

/// Whether a table option names a column: as a segment of its key (`fields.v.aggregate-function`)
/// or as one of its comma-separated values (`sequence.field` = `ts`, `bucket-key` = `a,b`).
pub(super) fn option_names_column(key: &str, value: &str, column: &str) -> bool {
    key.split('.').any(|s| s == column) || value.split(',').any(|v| v.trim() == column)
}
