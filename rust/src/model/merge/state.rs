//! The expected state of a table under its merge engine: the writes of each key merged in order.

use super::*;

impl Merge {
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
    pub(super) fn state_by_writer(
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
    pub(super) fn step(
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
    pub(super) fn merged(&self, shape: &Shape, records: &[Record]) -> Option<Vec<Value>> {
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

/// A write a key received, as the table stores it.
#[derive(Debug, Clone)]
pub(super) enum Record {
    Row(Vec<Value>),
    /// A delete, carrying the row it removed.
    Delete(Vec<Value>),
}

impl Record {
    pub(super) fn values(&self) -> &[Value] {
        match self {
            Record::Row(v) | Record::Delete(v) => v,
        }
    }
}

/// Two non-NULL values of one orderable type (NULL sorts first, as Paimon's comparators do).
pub(super) fn compare(ty: DataType, a: &Value, b: &Value) -> Ordering {
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
pub(super) fn aggregate(
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

pub(super) fn fold_one(f: Agg, ty: DataType, first: bool, acc: Value, input: &Value) -> Value {
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
pub(super) fn sum(ty: DataType, a: &Value, b: &Value) -> Value {
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
