//! How a keyed table merges the writes of one key, read from its options: Paimon's merge engines
//! (deduplicate, first-row, partial-update, aggregation with per-column functions, sequence
//! fields) and Fluss's (the default last row, `first_row`, `versioned`). The expected state of a
//! workload is computed here, exactly, by modelling what each engine documents; what this model
//! does not cover is refused up front, naming the option, never guessed.

use super::canon::{canon, CanonRow};
use super::packed::{PackedKey, PackedMap, Packer};
use super::types::DataType;
use super::value::Value;
use super::workload::{Op, OpKind, Shape};
use crate::create_table::CreateTable;
use crate::error::{Result, TierproofError};
use std::cmp::Ordering;

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

fn refused(reason: String) -> TierproofError {
    TierproofError::RefusedDdl(reason)
}

fn column(shape: &Shape, name: &str, option: &str) -> Result<usize> {
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

fn is_true(table: &CreateTable, key: &str) -> bool {
    table
        .option(key)
        .is_some_and(|v| v.eq_ignore_ascii_case("true"))
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

    fn paimon(table: &CreateTable, shape: &Shape) -> Result<Merge> {
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
        let (engine, remove_option) = match engine_name {
            "deduplicate" => (Engine::Deduplicate, None),
            "first-row" => (Engine::FirstRow, Some("ignore-delete")),
            "partial-update" => (
                Engine::PartialUpdate,
                Some("partial-update.remove-record-on-delete"),
            ),
            "aggregation" => {
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
            other => {
                return Err(refused(format!(
                    "merge-engine {other:?} is not one Paimon has (deduplicate, first-row, partial-update, aggregation)"
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

    fn fluss(table: &CreateTable, shape: &Shape, dedup: Merge) -> Result<Merge> {
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

    /// The rows the table holds after `ops` in order, as canonical cells, sorted: for a table
    /// without a key, every row written.
    pub fn state(&self, shape: &Shape, ops: &[Op]) -> Vec<CanonRow> {
        if shape.key.is_empty() {
            let mut rows: Vec<CanonRow> = ops.iter().map(|op| canon(shape, &op.values)).collect();
            rows.sort();
            return rows;
        }
        let mut packer = Packer::default();
        if let Some(rows) = self.state_by_writer(shape, ops, &mut packer) {
            return rows;
        }
        let rows: Vec<Vec<Value>> = if self.sequence.is_empty() {
            // Writes apply in arrival order: one merged row per key, updated in place.
            let mut state: PackedMap<Vec<Value>> = PackedMap::default();
            for op in ops {
                // The key's own allocation is taken out with its row and put back with the next.
                let packed = packer.key_of_values(shape, &op.values);
                let (key, current): (PackedKey, _) = match state.remove_entry(packed) {
                    Some((key, row)) => (key, Some(row)),
                    None => (packed.into(), None),
                };
                let next = match op.kind {
                    OpKind::Upsert => self.step(shape, current, Some(&op.values)),
                    OpKind::Delete if !self.deletes_remove => current,
                    OpKind::Delete => None,
                };
                if let Some(row) = next {
                    state.insert(key, row);
                }
            }
            state.into_values().collect()
        } else {
            // Writes apply in their sequence order, so every write of a key is kept until the end.
            let mut per_key: PackedMap<Vec<Record>> = PackedMap::default();
            for op in ops {
                let key: PackedKey = packer.key_of_values(shape, &op.values).into();
                let records = per_key.entry(key).or_default();
                match op.kind {
                    OpKind::Upsert => records.push(Record::Row(op.values.clone())),
                    OpKind::Delete if !self.deletes_remove => {}
                    // A DELETE removes the row it finds (its values, so its sequence fields are
                    // the stored row's); when the key holds no row it writes nothing.
                    OpKind::Delete => {
                        if let Some(row) = self.merged(shape, records) {
                            records.push(Record::Delete(row));
                        }
                    }
                }
            }
            per_key
                .values()
                .filter_map(|records| self.merged(shape, records))
                .collect()
        };
        let mut rows: Vec<CanonRow> = rows.iter().map(|row| canon(shape, row)).collect();
        rows.sort();
        rows
    }

    /// [`Self::state`] for an engine whose row is always one write's (deduplicate, first-row,
    /// versioned; no sequence fields): each key keeps which operation wrote its row, so no row
    /// is copied while folding. `None` for the other engines.
    fn state_by_writer(
        &self,
        shape: &Shape,
        ops: &[Op],
        packer: &mut Packer,
    ) -> Option<Vec<CanonRow>> {
        if !self.sequence.is_empty() {
            return None;
        }
        // Whether `new` replaces the row `current` wrote.
        let replaces: &dyn Fn(&[Value], &[Value]) -> bool = match &self.engine {
            Engine::Deduplicate => &|_, _| true,
            Engine::FirstRow => &|_, _| false,
            Engine::Versioned(v) => {
                let (v, ty) = (*v, shape.columns[*v].1);
                &move |new: &[Value], current: &[Value]| {
                    compare(ty, &new[v], &current[v]) != Ordering::Less
                }
            }
            Engine::PartialUpdate | Engine::Aggregation(_) => return None,
        };
        let mut writer: PackedMap<usize> = PackedMap::default();
        for (i, op) in ops.iter().enumerate() {
            let key = packer.key_of_values(shape, &op.values);
            match op.kind {
                OpKind::Upsert => match writer.get_mut(key) {
                    Some(at) => {
                        if replaces(&op.values, &ops[*at].values) {
                            *at = i;
                        }
                    }
                    None => {
                        writer.insert(key.into(), i);
                    }
                },
                OpKind::Delete if !self.deletes_remove => {}
                OpKind::Delete => {
                    writer.remove(key);
                }
            }
        }
        let mut rows: Vec<CanonRow> = writer
            .into_values()
            .map(|i| canon(shape, &ops[i].values))
            .collect();
        rows.sort_unstable();
        Some(rows)
    }

    /// One more write of a key (`None`: a delete) merged into what the key held.
    fn step(
        &self,
        shape: &Shape,
        state: Option<Vec<Value>>,
        write: Option<&[Value]>,
    ) -> Option<Vec<Value>> {
        let row = write?;
        Some(match (&self.engine, state) {
            (Engine::Aggregation(functions), None) => aggregate(shape, functions, None, row),
            (_, None) | (Engine::Deduplicate, Some(_)) => row.to_vec(),
            (Engine::FirstRow, Some(current)) => current,
            (Engine::PartialUpdate, Some(current)) => current
                .into_iter()
                .zip(row)
                .map(|(old, new)| {
                    if *new == Value::Null {
                        old
                    } else {
                        new.clone()
                    }
                })
                .collect(),
            (Engine::Aggregation(functions), Some(current)) => {
                aggregate(shape, functions, Some(current), row)
            }
            (Engine::Versioned(v), Some(current)) => {
                let ty = shape.columns[*v].1;
                if compare(ty, &row[*v], &current[*v]) != Ordering::Less {
                    row.to_vec()
                } else {
                    current
                }
            }
        })
    }

    /// The row a key's writes merge to, if any.
    fn merged(&self, shape: &Shape, records: &[Record]) -> Option<Vec<Value>> {
        let mut sorted: Vec<&Record> = records.iter().collect();
        if !self.sequence.is_empty() {
            // Stable: equal sequence values keep their arrival order.
            sorted.sort_by(|a, b| {
                self.sequence
                    .iter()
                    .map(|&c| compare(shape.columns[c].1, &a.values()[c], &b.values()[c]))
                    .find(|o| *o != Ordering::Equal)
                    .unwrap_or(Ordering::Equal)
            });
        }
        sorted.into_iter().fold(None, |state, record| match record {
            Record::Row(row) => self.step(shape, state, Some(row)),
            Record::Delete(_) => None,
        })
    }
}

/// Why Fluss 0.9.1's SQL `DELETE` cannot delete from this table, if it cannot: it pushes the
/// delete down only when every key column is compared with a literal of a type it converts
/// (CHAR, VARCHAR, BOOLEAN, DECIMAL, INT, BIGINT, DOUBLE, TIMESTAMP, TIMESTAMP_LTZ); for any other
/// key type it fails with a misleading message (docs/findings/fluss-0.9-delete-key-types.md).
fn fluss_sql_delete_blocker(shape: &Shape) -> Option<String> {
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

/// A write a key received, as the table stores it.
#[derive(Debug, Clone)]
enum Record {
    Row(Vec<Value>),
    /// A delete, carrying the row it removed.
    Delete(Vec<Value>),
}

impl Record {
    fn values(&self) -> &[Value] {
        match self {
            Record::Row(v) | Record::Delete(v) => v,
        }
    }
}

/// Two non-NULL values of one orderable type (NULL sorts first, as Paimon's comparators do).
fn compare(ty: DataType, a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        (Value::Int(x), Value::Int(y)) => x.cmp(y),
        (Value::Float(x), Value::Float(y)) => x.total_cmp(y),
        (
            Value::Decimal {
                unscaled: x,
                scale: sx,
            },
            Value::Decimal {
                unscaled: y,
                scale: sy,
            },
        ) => {
            let s = (*sx).max(*sy);
            let up = |v: i128, from: u8| v.saturating_mul(10i128.pow(u32::from(s - from)));
            up(*x, *sx).cmp(&up(*y, *sy))
        }
        (Value::Text(x), Value::Text(y)) => x.as_bytes().cmp(y.as_bytes()),
        (Value::Bytes(x), Value::Bytes(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::Date(x), Value::Date(y)) => x.cmp(y),
        (Value::Time(x), Value::Time(y)) => x.cmp(y),
        (Value::Timestamp(s1, n1), Value::Timestamp(s2, n2)) => (s1, n1).cmp(&(s2, n2)),
        _ => a.canonical(ty).cmp(&b.canonical(ty)),
    }
}

/// One more write folded into a key's aggregate (`current` is `None` for its first write).
fn aggregate(
    shape: &Shape,
    functions: &[Option<Agg>],
    current: Option<Vec<Value>>,
    row: &[Value],
) -> Vec<Value> {
    let first = current.is_none();
    let current = current.unwrap_or_else(|| vec![Value::Null; row.len()]);
    current
        .into_iter()
        .zip(row)
        .zip(functions)
        .zip(&shape.columns)
        .map(|(((acc, input), f), (_, ty))| match f {
            None => input.clone(),
            Some(f) => fold_one(*f, *ty, first, acc, input),
        })
        .collect()
}

fn fold_one(f: Agg, ty: DataType, first: bool, acc: Value, input: &Value) -> Value {
    let null = |v: &Value| *v == Value::Null;
    match f {
        Agg::LastValue => input.clone(),
        Agg::LastNonNullValue if null(input) => acc,
        Agg::LastNonNullValue => input.clone(),
        Agg::FirstValue if first => input.clone(),
        Agg::FirstValue => acc,
        Agg::FirstNonNullValue if null(&acc) => input.clone(),
        Agg::FirstNonNullValue => acc,
        _ if null(input) => acc,
        _ if null(&acc) => input.clone(),
        Agg::Max => {
            if compare(ty, input, &acc) == Ordering::Greater {
                input.clone()
            } else {
                acc
            }
        }
        Agg::Min => {
            if compare(ty, input, &acc) == Ordering::Less {
                input.clone()
            } else {
                acc
            }
        }
        Agg::Sum => sum(ty, &acc, input),
    }
}

/// Paimon's `sum`: Java arithmetic, so integers wrap at their type's width, FLOAT adds in single
/// precision, and a DECIMAL sum that no longer fits its precision becomes NULL.
fn sum(ty: DataType, a: &Value, b: &Value) -> Value {
    match (ty, a, b) {
        (DataType::TinyInt, Value::Int(x), Value::Int(y)) => {
            Value::Int(i64::from((*x as i8).wrapping_add(*y as i8)))
        }
        (DataType::SmallInt, Value::Int(x), Value::Int(y)) => {
            Value::Int(i64::from((*x as i16).wrapping_add(*y as i16)))
        }
        (DataType::Int, Value::Int(x), Value::Int(y)) => {
            Value::Int(i64::from((*x as i32).wrapping_add(*y as i32)))
        }
        (_, Value::Int(x), Value::Int(y)) => Value::Int(x.wrapping_add(*y)),
        (DataType::Float, Value::Float(x), Value::Float(y)) => {
            Value::Float(f64::from(*x as f32 + *y as f32))
        }
        (_, Value::Float(x), Value::Float(y)) => Value::Float(x + y),
        (
            DataType::Decimal(p, s),
            Value::Decimal { unscaled: x, .. },
            Value::Decimal { unscaled: y, .. },
        ) => {
            let total = x + y;
            if total.unsigned_abs() >= 10u128.pow(u32::from(p)) {
                Value::Null
            } else {
                Value::Decimal {
                    unscaled: total,
                    scale: s,
                }
            }
        }
        _ => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::super::workload::parse_workload_csv;
    use super::*;
    use crate::create_table::parse_create_table;

    fn setup(ddl: &str, target: Target) -> (Shape, Merge) {
        let t = parse_create_table(ddl).unwrap();
        let shape = Shape::of(&t).unwrap();
        let merge = Merge::of(&t, &shape, target).unwrap();
        (shape, merge)
    }

    fn state(ddl: &str, target: Target, csv: &str) -> Vec<String> {
        let (shape, merge) = setup(ddl, target);
        let ops = parse_workload_csv(&shape, csv).unwrap();
        merge.check_ops(&shape, &ops).unwrap();
        merge
            .state(&shape, &ops)
            .iter()
            .map(super::super::canon::show_row)
            .collect()
    }

    const OPS: &str = "op,k,a,b\n,1,5,x\n,1,,y\n,2,7,\n,1,3,\n";

    #[test]
    fn each_paimon_engine_merges_as_documented() {
        let t = |opts: &str| {
            format!("CREATE TABLE t (k INT, a INT, b STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})")
        };
        let p = Target::Paimon;
        assert_eq!(
            state(&t("'bucket' = '1'"), p, OPS),
            ["(1, 3, NULL)", "(2, 7, NULL)"]
        );
        assert_eq!(
            state(&t("'merge-engine' = 'first-row'"), p, OPS),
            ["(1, 5, x)", "(2, 7, NULL)"]
        );
        assert_eq!(
            state(&t("'merge-engine' = 'partial-update'"), p, OPS),
            ["(1, 3, y)", "(2, 7, NULL)"]
        );
        assert_eq!(
            state(
                &t("'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum'"),
                p,
                OPS
            ),
            ["(1, 8, y)", "(2, 7, NULL)"]
        );
        assert_eq!(
            state(
                &t("'merge-engine' = 'aggregation', 'fields.default-aggregate-function' = 'first_value'"),
                p,
                OPS
            ),
            ["(1, 5, x)", "(2, 7, NULL)"]
        );
        assert_eq!(
            state(
                &t("'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'max', 'fields.b.aggregate-function' = 'last_value'"),
                p,
                OPS
            ),
            ["(1, 5, NULL)", "(2, 7, NULL)"]
        );
        // The largest sequence value wins, whatever the arrival order; equal ones by arrival.
        assert_eq!(
            state(
                &t("'sequence.field' = 'a'"),
                p,
                "k,a,b\n1,9,x\n1,2,y\n1,9,z\n1,4,w\n"
            ),
            ["(1, 9, z)"]
        );
    }

    #[test]
    fn sums_wrap_like_java_and_decimals_overflow_to_null() {
        let ddl =
            "CREATE TABLE t (k INT, a INT, d DECIMAL(3, 1), PRIMARY KEY (k) NOT ENFORCED) WITH \
                   ('merge-engine' = 'aggregation', 'fields.default-aggregate-function' = 'sum')";
        assert_eq!(
            state(
                ddl,
                Target::Paimon,
                "k,a,d\n1,2147483647,99.9\n1,1,0.1\n1,,1\n"
            ),
            ["(1, -2147483648, 1.0)"]
        );
    }

    #[test]
    fn deletes_follow_each_engines_rules() {
        let t = |opts: &str| {
            parse_create_table(&format!(
                "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})"
            ))
            .unwrap()
        };
        let del = "op,k,a\n,1,1\ndelete,1,\n,2,2\n";
        for (opts, ok) in [
            ("'bucket' = '1'", true),
            ("'merge-engine' = 'first-row'", false),
            ("'merge-engine' = 'partial-update'", false),
            ("'merge-engine' = 'partial-update', 'partial-update.remove-record-on-delete' = 'true'", true),
            ("'merge-engine' = 'aggregation', 'aggregation.remove-record-on-delete' = 'true'", true),
        ] {
            let table = t(opts);
            let shape = Shape::of(&table).unwrap();
            let merge = Merge::of(&table, &shape, Target::Paimon).unwrap();
            let ops = parse_workload_csv(&shape, del).unwrap();
            assert_eq!(merge.check_ops(&shape, &ops).is_ok(), ok, "{opts}");
            if ok {
                assert_eq!(merge.state(&shape, &ops).len(), 1, "{opts}");
            }
        }
        // ignore-delete: a delete changes nothing.
        let table = t("'merge-engine' = 'first-row', 'ignore-delete' = 'true'");
        let shape = Shape::of(&table).unwrap();
        let merge = Merge::of(&table, &shape, Target::Paimon).unwrap();
        let ops = parse_workload_csv(&shape, del).unwrap();
        merge.check_ops(&shape, &ops).unwrap();
        assert_eq!(merge.state(&shape, &ops).len(), 2);
        // A delete under a sequence field removes the row it found; a later write with a smaller
        // sequence value still sorts before that delete, so the key stays deleted.
        assert_eq!(
            state(
                "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('sequence.field' = 'a')",
                Target::Paimon,
                "op,k,a\n,1,5\ndelete,1,\n,1,3\n,2,1\n"
            ),
            ["(2, 1)"]
        );
    }

    #[test]
    fn fluss_engines_and_their_limits() {
        let t = |opts: &str| {
            format!("CREATE TABLE t (k INT, v BIGINT, s STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})")
        };
        let f = Target::Fluss;
        // Fluss's SQL DELETE cannot match a DATE key: the SQL producer refuses such deletes,
        // naming why; the Fluss client writes them.
        let (shape, merge) = setup(
            "CREATE TABLE t (d DATE, v INT, PRIMARY KEY (d) NOT ENFORCED)",
            f,
        );
        let delete = parse_workload_csv(&shape, "op,d,v\ndelete,2024-02-29,\n").unwrap();
        assert!(merge.check_ops(&shape, &delete).is_ok());
        let why = merge.sql_deletes_refused.as_deref().unwrap_or_default();
        assert!(why.contains("key column d of type DATE"), "{why}");
        let ops = "k,v,s\n1,5,a\n1,3,b\n1,5,c\n2,1,d\n";
        assert_eq!(
            state(&t("'bucket.num' = '2'"), f, ops),
            ["(1, 5, c)", "(2, 1, d)"]
        );
        assert_eq!(
            state(&t("'table.merge-engine' = 'first_row'"), f, ops),
            ["(1, 5, a)", "(2, 1, d)"]
        );
        let versioned = t(
            "'table.merge-engine' = 'versioned', 'table.merge-engine.versioned.ver-column' = 'v'",
        );
        assert_eq!(state(&versioned, f, ops), ["(1, 5, c)", "(2, 1, d)"]);
        let (shape, merge) = setup(&versioned, f);
        let null_ver = parse_workload_csv(&shape, "k,v,s\n1,,a\n").unwrap();
        assert!(merge
            .check_ops(&shape, &null_ver)
            .unwrap_err()
            .to_string()
            .contains("NULL"));
        let delete = parse_workload_csv(&shape, "op,k,v,s\ndelete,1,,\n").unwrap();
        assert!(merge
            .check_ops(&shape, &delete)
            .unwrap_err()
            .to_string()
            .contains("no deletes"));
        let table = parse_create_table(&t("'table.merge-engine' = 'aggregation'")).unwrap();
        let shape = Shape::of(&table).unwrap();
        assert!(Merge::of(&table, &shape, f).is_err());
    }

    #[test]
    fn unmodelled_options_are_refused_by_name() {
        for (opts, word) in [
            (
                "'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'listagg'",
                "listagg",
            ),
            (
                "'merge-engine' = 'partial-update', 'fields.a.sequence-group' = 'k'",
                "sequence-group",
            ),
            ("'merge-engine' = 'nope'", "nope"),
            ("'sequence.field' = 'zz'", "zz"),
        ] {
            let table = parse_create_table(&format!(
                "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ({opts})"
            ))
            .unwrap();
            let shape = Shape::of(&table).unwrap();
            let e = Merge::of(&table, &shape, Target::Paimon)
                .unwrap_err()
                .to_string();
            assert!(e.contains(word), "{e}");
        }
    }

    #[test]
    fn replays_are_judged_only_where_paimon_promises_merged_changes() {
        let (_, m) = setup(
            "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' = 'partial-update', 'changelog-producer' = 'input')",
            Target::Paimon,
        );
        assert!(m.replay_not_promised.is_some());
        let (_, m) = setup(
            "CREATE TABLE t (k INT, a INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' = 'partial-update', 'changelog-producer' = 'lookup')",
            Target::Paimon,
        );
        assert!(m.replay_not_promised.is_none());
    }
}
