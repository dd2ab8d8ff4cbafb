//! Smaller workloads to try when a proof fails, simplest first: the counterexample search keeps
//! the first candidate that still fails and asks again, until none does (a local minimum). Every
//! candidate costs a real proof, so whole-workload steps come first.

use crate::model::values::types::DataType;
use crate::model::values::value::Value;
use crate::model::workloads::workload::{Op, OpKind, Shape};

/// The simplest value of a type: zero, the empty string or bytes, the epoch.
fn simplest(ty: DataType) -> Option<Value> {
    let text = match ty {
        DataType::Boolean => "false",
        DataType::Char(_) | DataType::VarChar(_) | DataType::Binary(_) | DataType::VarBinary(_) => {
            ""
        }
        DataType::Date => "1970-01-01",
        DataType::Time(_) => "00:00:00",
        DataType::Timestamp(_) | DataType::TimestampLtz(_) => "1970-01-01 00:00:00",
        _ => "0",
    };
    Value::parse(ty, text).ok()
}

/// A simpler value than `v` for its column, if there is one: a whole or decimal number halved
/// towards zero,
/// anything else its type's simplest value. NULL stays NULL (it is simple already).
fn simpler(v: &Value, ty: DataType) -> Option<Value> {
    if *v == Value::Null {
        return None;
    }
    let plain = simplest(ty)?;
    match v {
        Value::Int(i) if i.unsigned_abs() > 1 => Some(Value::Int(i / 2)),
        Value::Decimal { unscaled, scale } if unscaled.unsigned_abs() > 1 => Some(Value::Decimal {
            unscaled: unscaled / 2,
            scale: *scale,
        }),
        _ if *v == plain => None,
        _ => Some(plain),
    }
}

/// Candidates smaller or simpler than `ops`: without a chunk of operations (halves, then
/// quarters, … then single ones); every non-key value simplest at once; one key merged into the
/// first key wherever it occurs; then one value made simpler. The caller drops candidates the
/// table cannot take (its merge rules check every workload).
pub fn shrink_candidates(shape: &Shape, ops: &[Op]) -> Vec<Vec<Op>> {
    let mut out: Vec<Vec<Op>> = Vec::new();
    let n = ops.len();
    let mut size = n / 2;
    while size >= 1 {
        for start in (0..n).step_by(size) {
            let mut c = ops[..start].to_vec();
            c.extend_from_slice(&ops[(start + size).min(n)..]);
            if !c.is_empty() && !out.contains(&c) {
                out.push(c);
            }
        }
        size /= 2;
    }
    let non_key: Vec<usize> = (0..shape.columns.len())
        .filter(|i| !shape.key.contains(i))
        .collect();
    let all_simple: Vec<Op> = ops
        .iter()
        .map(|op| {
            let mut values = op.values.clone();
            if op.kind == OpKind::Upsert {
                for &c in &non_key {
                    if values[c] != Value::Null {
                        if let Some(s) = simplest(shape.columns[c].1) {
                            values[c] = s;
                        }
                    }
                }
            }
            Op {
                kind: op.kind,
                values,
            }
        })
        .collect();
    if all_simple != ops {
        out.push(all_simple);
    }
    if let Some(first) = ops.first() {
        let key_of =
            |op: &Op| -> Vec<Value> { shape.key.iter().map(|&k| op.values[k].clone()).collect() };
        let first_key = key_of(first);
        let mut seen: Vec<Vec<Value>> = vec![first_key.clone()];
        for op in ops {
            let key = key_of(op);
            if shape.key.is_empty() || seen.contains(&key) {
                continue;
            }
            seen.push(key.clone());
            let merged = ops
                .iter()
                .map(|o| {
                    let mut o = o.clone();
                    if key_of(&o) == key {
                        for (&k, v) in shape.key.iter().zip(&first_key) {
                            o.values[k] = v.clone();
                        }
                    }
                    o
                })
                .collect();
            out.push(merged);
        }
    }
    for (i, op) in ops.iter().enumerate() {
        if op.kind == OpKind::Delete {
            continue;
        }
        for &c in &non_key {
            if let Some(s) = simpler(&op.values[c], shape.columns[c].1) {
                let mut cand = ops.to_vec();
                cand[i].values[c] = s;
                out.push(cand);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::workloads::input::parse_workload;

    fn shape() -> Shape {
        let t = crate::create_table::parse_create_table(
            "CREATE TABLE t (k STRING, d DATE, v DECIMAL(5, 2), PRIMARY KEY (k, d) NOT ENFORCED)",
        )
        .unwrap();
        Shape::of(&t).unwrap()
    }

    fn ops(csv: &str) -> Vec<Op> {
        parse_workload(&shape(), csv).unwrap()
    }

    /// Shrinks with a predicate standing in for "the proof still fails"; returns the minimum and
    /// how many candidates were tried (each a proof in real use).
    fn minimize(mut w: Vec<Op>, fails: impl Fn(&[Op]) -> bool) -> (Vec<Op>, usize) {
        assert!(fails(&w));
        let mut tried = 0;
        while let Some(next) = shrink_candidates(&shape(), &w).into_iter().find(|c| {
            tried += 1;
            fails(c)
        }) {
            w = next;
        }
        (w, tried)
    }

    #[test]
    fn a_repeated_key_shrinks_to_two_simplest_writes() {
        // Fails while some key is written twice: what an append-only table gets wrong.
        let sh = shape();
        let repeated = |w: &[Op]| {
            let keys: Vec<Vec<Value>> = w
                .iter()
                .map(|o| sh.key.iter().map(|&k| o.values[k].clone()).collect())
                .collect();
            (1..keys.len()).any(|i| keys[..i].contains(&keys[i]))
        };
        let w = ops("k,d,v\na,2024-02-29,1.50\nb,2024-03-01,\nc,2024-03-02,-999.99\nb,2024-03-01,7\nd,2024-01-01,1\n");
        let (min, tried) = minimize(w, repeated);
        // NULL is simple already; 7 became 0.
        assert_eq!(
            min,
            ops("k,d,v\nb,2024-03-01,\nb,2024-03-01,0\n"),
            "{min:?}"
        );
        assert!(tried <= 30, "{tried} candidates tried");
    }

    #[test]
    fn candidates_are_smaller_or_simpler_and_deletes_keep_their_key() {
        let w = ops("op,k,d,v\nupsert,x,2024-02-29,8\ndelete,y,2024-03-01,\n");
        let c = shrink_candidates(&shape(), &w);
        assert_eq!(c[0], w[1..]);
        assert_eq!(c[1], w[..1]);
        assert!(c.contains(&ops(
            "op,k,d,v\nupsert,x,2024-02-29,0\ndelete,y,2024-03-01,\n"
        )));
        assert!(c.contains(&ops(
            "op,k,d,v\nupsert,x,2024-02-29,8\ndelete,x,2024-02-29,\n"
        )));
        assert!(c.contains(&ops(
            "op,k,d,v\nupsert,x,2024-02-29,4\ndelete,y,2024-03-01,\n"
        )));
        let simple = shrink_candidates(&shape(), &ops("k,d,v\n\"\",1970-01-01,0\n"));
        assert!(simple.is_empty(), "{simple:?}");
    }
}
