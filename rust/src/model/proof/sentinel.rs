//! The sentinel: a row no workload writes, whose commit ends a streaming read of the table.

use super::*;

/// Candidate values of a type, for a sentinel: simple ones first, none of them NaN or -0.0.
pub(super) fn candidates(ty: DataType, n: usize) -> Vec<Value> {
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
pub(super) fn filler(ty: DataType) -> Value {
    candidates(ty, 1).into_iter().next().unwrap_or(Value::Null)
}

/// The positions of the table's partition columns.
pub(super) fn partition_columns(table: &CreateTable, shape: &Shape) -> Vec<usize> {
    shape
        .columns
        .iter()
        .enumerate()
        .filter(|(_, (name, _))| table.partition_keys.iter().any(|p| p == name))
        .map(|(i, _)| i)
        .collect()
}

/// The positions of the table's partition columns of a text type.
pub(super) fn partition_text_columns(table: &CreateTable, shape: &Shape) -> Vec<usize> {
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
pub(super) fn choose_sentinel(shape: &Shape, ops: &[Op]) -> Result<(usize, Vec<Value>)> {
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
