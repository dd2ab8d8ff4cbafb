//! A table's variants for the matrix: the same columns, key and partitions under another merge
//! engine and changelog producer, named for the cell. The user's other options (buckets, file
//! format, …) stay; the options that choose the engine and its functions are replaced.

use crate::create_table::{parse_create_table, CreateTable};
use crate::error::{Result, TierproofError};
use crate::ident::TablePath;
use crate::model::merge::names::{ChangelogProducer, PaimonEngine};
use crate::model::values::types::DataType;
use crate::model::workloads::workload::Shape;

/// The merge engines the matrix runs; `append-only` is the table without its key.
pub const ENGINES: [&str; 5] = [
    PaimonEngine::Deduplicate.name(),
    PaimonEngine::FirstRow.name(),
    PaimonEngine::PartialUpdate.name(),
    PaimonEngine::Aggregation.name(),
    "append-only",
];
/// Paimon's changelog producers.
pub const PRODUCERS: [&str; 4] = [
    ChangelogProducer::None.name(),
    ChangelogProducer::Input.name(),
    ChangelogProducer::Lookup.name(),
    ChangelogProducer::FullCompaction.name(),
];

/// Options a variant sets itself: the user's values for them are dropped.
fn chosen_by_variant(key: &str) -> bool {
    matches!(
        key,
        "merge-engine"
            | "changelog-producer"
            | "fields.default-aggregate-function"
            | "full-compaction.delta-commits"
            | "sequence.field"
            | "ignore-delete"
            | "partial-update.remove-record-on-delete"
            | "aggregation.remove-record-on-delete"
    ) || (key.starts_with("fields.")
        && (key.ends_with(".aggregate-function") || key.ends_with(".sequence-group")))
}

fn numeric(ty: DataType) -> bool {
    matches!(
        ty,
        DataType::TinyInt
            | DataType::SmallInt
            | DataType::Int
            | DataType::BigInt
            | DataType::Float
            | DataType::Double
            | DataType::Decimal(..)
    )
}

/// The DDL of `ddl`'s table as `name` (in the same database) under `engine` and `producer`.
/// Aggregation sums every numeric non-key column (the others keep their last non-NULL value);
/// full-compaction makes a changelog at every commit (`full-compaction.delta-commits` 1).
pub fn matrix_variant(ddl: &str, name: &str, engine: &str, producer: &str) -> Result<String> {
    if !ENGINES.contains(&engine) || !PRODUCERS.contains(&producer) {
        return Err(TierproofError::InvalidInput(format!(
            "no matrix variant {engine} + {producer}: engines are {ENGINES:?}, producers {PRODUCERS:?}"
        )));
    }
    let mut table: CreateTable = parse_create_table(ddl)?;
    table.check_safe()?;
    let shape = Shape::of(&table)?;
    let mut parts = table.path.parts().to_vec();
    if let Some(last) = parts.last_mut() {
        *last = name.to_string();
    }
    table.path = TablePath::from_parts(&parts)?;
    table.if_not_exists = false;
    table.options.retain(|(k, _)| !chosen_by_variant(k));
    let mut chosen: Vec<(String, String)> = vec![("changelog-producer".into(), producer.into())];
    if producer == "full-compaction" {
        chosen.push(("full-compaction.delta-commits".into(), "1".into()));
    }
    if engine == "append-only" {
        table.primary_key.clear();
        // A bucketed append table needs a bucket key; without one it is bucket-unaware.
        if table.option("bucket-key").is_none() {
            table.options.retain(|(k, _)| k != "bucket");
        }
    } else {
        chosen.push(("merge-engine".into(), engine.into()));
    }
    if engine == "aggregation" {
        for (i, (column, ty)) in shape.columns.iter().enumerate() {
            if !shape.key.contains(&i) && numeric(*ty) {
                chosen.push((format!("fields.{column}.aggregate-function"), "sum".into()));
            }
        }
    }
    table.options.extend(chosen);
    table.canonical_sql()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEDGER: &str = "CREATE TABLE ledger (region STRING, id BIGINT, amount DECIMAL(12, 2), \
        note STRING, PRIMARY KEY (region, id) NOT ENFORCED) PARTITIONED BY (region) \
        WITH ('bucket' = '4', 'merge-engine' = 'first-row', 'fields.note.aggregate-function' = 'max')";

    #[test]
    fn a_variant_keeps_the_shape_and_replaces_the_engine() {
        let v = matrix_variant(LEDGER, "m_aggregation_lookup", "aggregation", "lookup").unwrap();
        assert!(v.starts_with("CREATE TABLE `m_aggregation_lookup`"), "{v}");
        assert!(v.contains("PRIMARY KEY (`region`, `id`) NOT ENFORCED"));
        assert!(v.contains("PARTITIONED BY (`region`)"));
        assert!(v.contains("'bucket' = '4'"));
        assert!(v.contains("'merge-engine' = 'aggregation'"));
        assert!(v.contains("'fields.amount.aggregate-function' = 'sum'"));
        assert!(!v.contains("first-row") && !v.contains("'max'"), "{v}");
        let a = matrix_variant(LEDGER, "m_append", "append-only", "full-compaction").unwrap();
        assert!(
            !a.contains("PRIMARY KEY") && !a.contains("merge-engine") && !a.contains("'bucket'"),
            "{a}"
        );
        assert!(a.contains("'full-compaction.delta-commits' = '1'"));
        assert!(matrix_variant(LEDGER, "x", "nope", "input").is_err());
    }

    #[test]
    fn the_id_bal_variant_is_the_matrix_table_it_always_was() {
        let base = crate::ddl::tier_table_ddl("accounts").unwrap();
        let v = matrix_variant(&base, "m_aggregation_input", "aggregation", "input").unwrap();
        assert!(v.contains("'fields.bal.aggregate-function' = 'sum'"));
        assert!(v.contains("'bucket' = '1'"));
    }
}
