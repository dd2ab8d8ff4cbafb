//! What a proof exercises, in the words a campaign counts: the table's kind, key, engine,
//! partitions, buckets, column types and options, and what its workload holds. Counted over a
//! campaign's trials, they show a person what the search did *not* explore.

use super::*;
use crate::model::merge::Engine;
use std::collections::BTreeSet;

impl Proof {
    /// Each thing this proof exercises, once, as `kind value` (`engine first-row`,
    /// `partition column DATE`, `partitions 2-4`, `type DECIMAL`, `option table.log.ttl`, ...).
    pub fn coverage(&self) -> Vec<String> {
        let mut out = BTreeSet::new();
        if self.shape.key.is_empty() {
            out.insert("table log".to_string());
        } else {
            out.insert("table keyed".to_string());
            out.insert(format!("key columns {}", self.shape.key.len()));
        }
        out.insert(format!("engine {}", engine_name(&self.merge.engine)));
        let partitions = partition_columns(&self.table, &self.shape);
        for &c in &partitions {
            out.insert(format!(
                "partition column {}",
                type_class(self.shape.columns[c].1)
            ));
        }
        out.insert(format!("partitions {}", self.partition_count(&partitions)));
        for (key, value) in &self.table.options {
            match key.as_str() {
                "bucket" | "bucket.num" => out.insert(format!("buckets {value}")),
                _ => out.insert(format!("option {key}")),
            };
        }
        for (_, ty) in &self.shape.columns {
            out.insert(format!("type {}", type_class(*ty)));
        }
        out.insert(format!(
            "columns {}",
            match self.shape.columns.len() {
                0..=4 => "1-4",
                5..=9 => "5-9",
                10..=24 => "10-24",
                _ => "25+",
            }
        ));
        let long = |v: &Value| matches!(v, Value::Text(t) if t.len() >= 1_000);
        if self.ops.iter().any(|op| op.values.iter().any(long)) {
            out.insert("operations with long texts".to_string());
        }
        if self.ops.iter().any(|op| op.kind == OpKind::Delete) {
            out.insert("operations with deletes".to_string());
        }
        let nulls = self
            .ops
            .iter()
            .any(|op| op.kind == OpKind::Upsert && op.values.contains(&Value::Null));
        if nulls {
            out.insert("operations with NULLs".to_string());
        }
        out.into_iter().collect()
    }

    /// How many partitions the workload writes, in a class: `none`, `1`, `2-4`, `5-16`, `17+`.
    fn partition_count(&self, columns: &[usize]) -> &'static str {
        if columns.is_empty() {
            return "none";
        }
        let distinct: BTreeSet<Vec<String>> = self
            .ops
            .iter()
            .map(|op| {
                columns
                    .iter()
                    .map(|&c| op.values[c].canonical(self.shape.columns[c].1))
                    .collect()
            })
            .collect();
        match distinct.len() {
            0 | 1 => "1",
            2..=4 => "2-4",
            5..=16 => "5-16",
            _ => "17+",
        }
    }
}

fn engine_name(engine: &Engine) -> &'static str {
    match engine {
        Engine::Deduplicate => "deduplicate",
        Engine::FirstRow => "first-row",
        Engine::PartialUpdate => "partial-update",
        Engine::Aggregation(_) => "aggregation",
        Engine::Versioned(_) => "versioned",
    }
}

/// A type without its length, precision or scale: `DECIMAL(12, 2)` is `DECIMAL`.
fn type_class(ty: DataType) -> String {
    let text = ty.to_string();
    text.split('(').next().unwrap_or(&text).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partitioned_keyed_table_and_a_log_table_say_what_they_exercise() {
        let keyed = Proof::generate(
            Target::Paimon,
            "CREATE TABLE t (region STRING, id INT, amount DECIMAL(12, 2), PRIMARY KEY (region, id) NOT ENFORCED) \
             PARTITIONED BY (region) WITH ('bucket' = '2', 'merge-engine' = 'first-row', 'file.format' = 'orc')",
            200,
            40,
            3,
            true,
        )
        .unwrap()
        .coverage();
        for expected in [
            "table keyed",
            "key columns 2",
            "engine first-row",
            "partition column STRING",
            "partitions 2-4",
            "buckets 2",
            "option file.format",
            "option merge-engine",
            "type DECIMAL",
            "type INT",
            "type STRING",
            "operations with NULLs",
        ] {
            assert!(
                keyed.contains(&expected.to_string()),
                "{expected} in {keyed:?}"
            );
        }
        let log = Proof::generate(Target::Paimon, "CREATE TABLE l (v INT)", 5, 5, 1, true)
            .unwrap()
            .coverage();
        assert!(log.contains(&"table log".to_string()), "{log:?}");
        assert!(log.contains(&"columns 1-4".to_string()), "{log:?}");
        assert!(
            !log.contains(&"operations with long texts".to_string()),
            "{log:?}"
        );
        assert!(log.contains(&"partitions none".to_string()), "{log:?}");
        assert!(!log.iter().any(|c| c.starts_with("key columns")), "{log:?}");
        assert!(
            !log.contains(&"operations with deletes".to_string()),
            "{log:?}"
        );
    }
}
