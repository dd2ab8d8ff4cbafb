//! Seeded workloads for any table: repeated keys, deletes (of present and absent keys), NULLs
//! where a column allows them, and each type's edge values (extremes, empty and non-BMP strings,
//! CSV-hostile text, leap days, the ends of DATE, DST-edge instants, max-precision decimals).
//! Only values the SQL producer can write exactly are made (see [`Value::sql_literal`]).

use crate::error::{Result, TierproofError};
use crate::model::values::types::DataType;
use crate::model::values::value::Value;
use crate::model::workloads::workload::{Op, OpKind, Shape};
use std::collections::{HashMap, HashSet};

/// A tiny, well-known generator: the same sequence on every platform for a seed.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

struct Rng(SplitMix64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0.next_u64() % n.max(1)
    }

    fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}

const DAY: i64 = 86_400;

fn truncate(nanos: u64, p: u8) -> u64 {
    let unit = 10u64.pow(9 - u32::from(p));
    nanos - nanos % unit
}

fn text_fit(s: &str, n: u32) -> String {
    s.chars().take(n as usize).collect()
}

/// The edge values of a type, all writable as SQL constants.
fn edges(ty: DataType) -> Vec<Value> {
    let days = |y, m, d| crate::model::values::civil::days_from_civil(y, m, d);
    match ty {
        DataType::Boolean => vec![Value::Bool(true), Value::Bool(false)],
        DataType::TinyInt => vec![Value::Int(-128), Value::Int(127), Value::Int(0)],
        DataType::SmallInt => vec![Value::Int(-32768), Value::Int(32767), Value::Int(0)],
        DataType::Int => vec![
            Value::Int(i32::MIN.into()),
            Value::Int(i32::MAX.into()),
            Value::Int(0),
        ],
        DataType::BigInt => vec![Value::Int(i64::MIN), Value::Int(i64::MAX), Value::Int(0)],
        DataType::Float => vec![
            Value::Float(f64::from(3.402823e38f32)),
            Value::Float(f64::from(1.4e-45f32)),
            Value::Float(-1.5),
        ],
        DataType::Double => vec![
            Value::Float(f64::MAX),
            Value::Float(5e-324),
            Value::Float(-0.5),
        ],
        DataType::Decimal(p, s) => {
            let max = 10i128.pow(u32::from(p)) - 1;
            vec![
                Value::Decimal {
                    unscaled: max,
                    scale: s,
                },
                Value::Decimal {
                    unscaled: -max,
                    scale: s,
                },
                Value::Decimal {
                    unscaled: 1,
                    scale: s,
                },
                Value::Decimal {
                    unscaled: 0,
                    scale: s,
                },
            ]
        }
        DataType::Char(n) | DataType::VarChar(n) => vec![
            Value::Text(String::new()),
            Value::Text(text_fit("Ünïcødé 表 😀", n)),
            Value::Text(text_fit("a,b\"c\nd", n)),
            Value::Text(text_fit(" NULL ", n)),
        ],
        DataType::Binary(n) | DataType::VarBinary(n) => vec![
            Value::Bytes(Vec::new()),
            Value::Bytes(vec![0]),
            Value::Bytes(vec![0xff; (n as usize).min(4)]),
        ],
        DataType::Date => vec![
            Value::Date(days(1, 1, 1)),
            Value::Date(days(9999, 12, 31)),
            Value::Date(days(2024, 2, 29)),
            Value::Date(-1),
        ],
        DataType::Time(p) => vec![Value::Time(0), Value::Time(truncate(86_399_999_999_999, p))],
        DataType::Timestamp(p) => vec![
            Value::Timestamp(0, 0),
            Value::Timestamp(-1, truncate(999_999_999, p) as u32),
            Value::Timestamp(i64::from(days(2024, 2, 29)) * DAY + 12 * 3600, 0),
            Value::Timestamp(
                i64::from(days(9999, 12, 31)) * DAY + DAY - 1,
                truncate(999_999_999, p) as u32,
            ),
        ],
        // Instants around daylight-saving changes (EU and US, 2024), and the epoch.
        DataType::TimestampLtz(p) => vec![
            Value::Timestamp(1_711_846_800, 0),
            Value::Timestamp(1_729_990_800, truncate(500_000_000, p) as u32),
            Value::Timestamp(1_710_054_000, 0),
            Value::Timestamp(0, 0),
        ],
    }
}

/// A plain value of a type: small ranges, so that values repeat — wider for key columns of a
/// workload over many keys (`keys`: integers in ±`keys`, text of `keys` values, as many dates),
/// so that `--keys 100000` means about that many.
fn plain(ty: DataType, keys: u64, rng: &mut Rng) -> Value {
    let half = (keys.max(1000)) as i64;
    let small = |rng: &mut Rng| rng.below(2 * half as u64 + 1) as i64 - half;
    match ty {
        DataType::Boolean => Value::Bool(rng.one_in(2)),
        DataType::TinyInt => Value::Int(rng.below(256) as i64 - 128),
        DataType::SmallInt | DataType::Int | DataType::BigInt => Value::Int(small(rng)),
        DataType::Float | DataType::Double => Value::Float(small(rng) as f64 / 4.0),
        DataType::Decimal(p, s) => {
            let max = 10i128.pow(u32::from(p)) - 1;
            Value::Decimal {
                unscaled: (i128::from(small(rng)) * 137) % (max + 1),
                scale: s,
            }
        }
        DataType::Char(n) | DataType::VarChar(n) => {
            Value::Text(text_fit(&format!("s{}", rng.below(keys.max(50))), n))
        }
        DataType::Binary(n) | DataType::VarBinary(n) => {
            Value::Bytes(vec![rng.below(256) as u8; (n as usize).min(2)])
        }
        DataType::Date => Value::Date(10_957 + rng.below(keys.clamp(10_000, 2_900_000)) as i32),
        DataType::Time(p) => Value::Time(truncate(rng.below(86_400_000) * 1_000_000, p)),
        DataType::Timestamp(p) | DataType::TimestampLtz(p) => Value::Timestamp(
            946_684_800 + rng.below(1_000_000_000) as i64,
            truncate(rng.below(1_000) * 1_000_000, p) as u32,
        ),
    }
}

fn value(ty: DataType, nullable: bool, keys: u64, rng: &mut Rng) -> Value {
    if nullable && rng.one_in(16) {
        return Value::Null;
    }
    if rng.one_in(8) {
        let e = edges(ty);
        return e[rng.below(e.len() as u64) as usize].clone();
    }
    plain(ty, keys, rng)
}

/// `n` operations over about `keys` distinct keys, deterministic for `seed`.
pub fn random_ops(shape: &Shape, n: usize, keys: u32, seed: u64, deletes: bool) -> Result<Vec<Op>> {
    if n == 0 || keys == 0 {
        return Err(TierproofError::InvalidInput(
            "a random workload needs at least 1 operation and 1 key".into(),
        ));
    }
    let mut rng = Rng(SplitMix64(seed));
    let key_tuple = |rng: &mut Rng| -> Vec<Value> {
        shape
            .key
            .iter()
            .map(|&c| value(shape.columns[c].1, false, u64::from(keys), rng))
            .collect()
    };
    let canon = |t: &[Value]| -> Vec<String> {
        t.iter()
            .zip(&shape.key)
            .map(|(v, &c)| v.canonical(shape.columns[c].1))
            .collect()
    };
    let mut key_set: Vec<Vec<Value>> = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..(keys as usize * 20) {
        if key_set.len() == keys as usize || shape.key.is_empty() {
            break;
        }
        let t = key_tuple(&mut rng);
        if seen.insert(canon(&t)) {
            key_set.push(t);
        }
    }
    let mut ops = Vec::with_capacity(n);
    for _ in 0..n {
        let delete = deletes && !shape.key.is_empty() && rng.one_in(8);
        let key = if shape.key.is_empty() {
            Vec::new()
        } else if delete && rng.one_in(4) {
            // A delete of a key no upsert writes (if one turns up).
            let t = key_tuple(&mut rng);
            if seen.contains(&canon(&t)) {
                key_set[rng.below(key_set.len() as u64) as usize].clone()
            } else {
                t
            }
        } else {
            key_set[rng.below(key_set.len() as u64) as usize].clone()
        };
        let mut values = Vec::with_capacity(shape.columns.len());
        for (c, (_, ty)) in shape.columns.iter().enumerate() {
            if let Some(k) = shape.key.iter().position(|&kc| kc == c) {
                values.push(key[k].clone());
            } else if delete {
                values.push(Value::Null);
            } else {
                values.push(value(*ty, !shape.not_null[c], 0, &mut rng));
            }
        }
        ops.push(Op {
            kind: if delete {
                OpKind::Delete
            } else {
                OpKind::Upsert
            },
            values,
        });
    }
    Ok(ops)
}

/// How many values each partition column of a generated workload takes, unless asked for more:
/// users' tables have a handful of days or regions, not a partition per key.
pub const PARTITION_VALUES: usize = 4;

/// Narrows each of `columns` to at most `values` distinct values (0: leaves them as drawn): the
/// values in the order they first appear, the first `values` of them kept, and each later one
/// replaced by a kept one, in turn. Deterministic, so a seed still names one workload. A key
/// that holds such a column may then meet another key's writes: still one workload, fewer keys.
pub fn narrow_partitions(ops: &mut [Op], columns: &[usize], values: usize) {
    if values == 0 {
        return;
    }
    for &c in columns {
        // Each distinct value by its first appearance; looked up by its debug text (a value of any
        // type, floats included), so a workload of millions stays linear.
        let mut first: HashMap<String, usize> = HashMap::new();
        let mut kept: Vec<Value> = Vec::with_capacity(values);
        for op in ops.iter_mut() {
            let next = first.len();
            let index = *first.entry(format!("{:?}", op.values[c])).or_insert(next);
            if index < values && kept.len() == index {
                kept.push(op.values[c].clone());
            }
            op.values[c] = kept[index % values].clone();
        }
    }
}

/// Puts about `percent` % of the operations after the first on the first one's key (a hot key,
/// as a popular account or a busy sensor is): their key columns (`key`) take its values, the rest
/// of each operation stays. Deterministic for `seed`; a table without a key is left as it is.
pub fn make_hot(ops: &mut [Op], key: &[usize], percent: u8, seed: u64) {
    let Some(first) = ops.first() else {
        return;
    };
    if key.is_empty() || percent == 0 {
        return;
    }
    let hot: Vec<Value> = key.iter().map(|&c| first.values[c].clone()).collect();
    let mut rng = Rng(SplitMix64(seed ^ 0x5EED_F117));
    for op in ops.iter_mut().skip(1) {
        if rng.below(100) < u64::from(percent) {
            for (&c, v) in key.iter().zip(&hot) {
                op.values[c] = v.clone();
            }
        }
    }
}

/// The lengths a long text takes: a kilobyte, tens of kilobytes, a few hundred.
const LONG_TEXTS: [usize; 3] = [1_000, 30_000, 300_000];

/// Lengthens about one in four values of the text columns `columns` (unbounded `STRING`s, never a
/// key or partition column) in the upserts of `ops`, to one of [`LONG_TEXTS`]' lengths, the value
/// kept as its prefix. Deterministic for `seed`.
pub fn make_long_texts(ops: &mut [Op], columns: &[usize], seed: u64) {
    let mut rng = Rng(SplitMix64(seed ^ 0x10_4E_7E_57));
    for op in ops.iter_mut().filter(|op| op.kind == OpKind::Upsert) {
        for &c in columns {
            if !rng.one_in(4) {
                continue;
            }
            let length = LONG_TEXTS[rng.below(LONG_TEXTS.len() as u64) as usize];
            if let Value::Text(t) = &mut op.values[c] {
                let fill = length.saturating_sub(t.len());
                t.push('~');
                t.extend(std::iter::repeat_n('x', fill));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::create_table::parse_create_table;

    fn all_types() -> Shape {
        Shape::of(
            &parse_create_table(
                "CREATE TABLE t (k1 STRING, k2 DATE, b BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT, \
                 f FLOAT, d DOUBLE, dec DECIMAL(38, 18), c CHAR(3), vc VARCHAR(5), bin BINARY(2), vb BYTES, \
                 t3 TIME(3), ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(3), PRIMARY KEY (k1, k2) NOT ENFORCED)",
            )
            .unwrap(),
        )
        .unwrap()
    }

    #[test]
    fn many_keys_mean_many_keys() {
        let shape = Shape {
            columns: vec![("k".into(), DataType::Int), ("v".into(), DataType::Int)],
            not_null: vec![true, false],
            key: vec![0],
        };
        let ops = random_ops(&shape, 100_000, 50_000, 3, false).unwrap();
        let keys: HashSet<String> = ops
            .iter()
            .map(|o| o.values[0].canonical(DataType::Int))
            .collect();
        assert!(keys.len() > 40_000, "{} keys", keys.len());
    }

    #[test]
    fn deterministic_writable_with_edges_nulls_and_deletes() {
        let shape = all_types();
        let a = random_ops(&shape, 2000, 30, 7, true).unwrap();
        assert_eq!(a, random_ops(&shape, 2000, 30, 7, true).unwrap());
        assert_ne!(a, random_ops(&shape, 2000, 30, 8, true).unwrap());
        // Every value is one the SQL producer writes exactly.
        for op in &a {
            for (v, (name, ty)) in op.values.iter().zip(&shape.columns) {
                v.sql_literal(*ty).unwrap_or_else(|e| panic!("{name}: {e}"));
            }
        }
        let deletes = a.iter().filter(|o| o.kind == OpKind::Delete).count();
        assert!(deletes > 100, "{deletes} deletes");
        assert!(a.iter().any(|o| o.values[2] == Value::Null));
        assert!(a.iter().any(|o| o.values[6] == Value::Int(i64::MIN)));
        assert!(a.iter().any(|o| o.values[12] == Value::Bytes(Vec::new())));
        // Keys repeat: about 30 distinct among the upserts.
        let keys: HashSet<String> = a
            .iter()
            .filter(|o| o.kind == OpKind::Upsert)
            .map(|o| format!("{:?}{:?}", o.values[0], o.values[1]))
            .collect();
        assert!(keys.len() <= 30, "{} keys", keys.len());
    }

    #[test]
    fn a_hot_key_takes_about_its_share_and_nothing_else_changes() {
        let shape = all_types();
        let ops = random_ops(&shape, 2000, 300, 7, true).unwrap();
        let mut hot = ops.clone();
        make_hot(&mut hot, &shape.key, 90, 7);
        let key_of =
            |op: &Op| -> Vec<Value> { shape.key.iter().map(|&c| op.values[c].clone()).collect() };
        let first = key_of(&hot[0]);
        let on_hot = hot.iter().filter(|op| key_of(op) == first).count();
        assert!(
            (1700..=1900).contains(&on_hot),
            "{on_hot} of 2000 on the hot key"
        );
        for (a, b) in ops.iter().zip(&hot) {
            assert_eq!(a.kind, b.kind);
            for c in (0..a.values.len()).filter(|c| !shape.key.contains(c)) {
                assert_eq!(a.values[c], b.values[c]);
            }
        }
        let mut again = ops.clone();
        make_hot(&mut again, &shape.key, 90, 7);
        assert_eq!(hot, again);
        let mut none = ops.clone();
        make_hot(&mut none, &shape.key, 0, 7);
        assert_eq!(none, ops);
    }

    #[test]
    fn partitions_narrow_to_a_handful_of_values_in_order() {
        let shape = all_types();
        let mut ops = random_ops(&shape, 2000, 300, 7, true).unwrap();
        let distinct = |ops: &[Op], c: usize| {
            ops.iter()
                .map(|o| format!("{:?}", o.values[c]))
                .collect::<HashSet<_>>()
                .len()
        };
        assert!(distinct(&ops, 0) > 50, "{} values drawn", distinct(&ops, 0));
        let first: Vec<Value> = ops.iter().take(3).map(|o| o.values[0].clone()).collect();
        let untouched = ops.clone();
        narrow_partitions(&mut ops, &[0, 5], PARTITION_VALUES);
        assert!(distinct(&ops, 0) <= PARTITION_VALUES && distinct(&ops, 5) <= PARTITION_VALUES);
        assert_eq!(distinct(&ops, 0), PARTITION_VALUES);
        // The first values keep their place; other columns and kinds are untouched.
        assert_eq!(ops[0].values[0], first[0]);
        for (a, b) in ops.iter().zip(&untouched) {
            assert_eq!(a.kind, b.kind);
            assert_eq!(a.values[1..5], b.values[1..5]);
        }
        let mut again = untouched.clone();
        narrow_partitions(&mut again, &[0, 5], PARTITION_VALUES);
        assert_eq!(again, ops, "deterministic");
        let mut all = untouched.clone();
        narrow_partitions(&mut all, &[0], 0);
        assert_eq!(all, untouched, "0 leaves them as drawn");
    }
}
