//! The table under proof, as data: columns, key, bucket, merge engine, changelog producer and any
//! extra options. The default spec is the exercise's tiered table.

use crate::error::{Result, TierproofError};
use crate::ident::validate_name;
pub use crate::model::merge::names::{ChangelogProducer, PaimonEngine};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// `PRIMARY KEY (id) NOT ENFORCED` when true; reads of such a table fold as upserts by id.
    pub primary_key: bool,
    /// The `WITH` options, in order.
    pub options: Vec<(String, String)>,
}

/// The two columns every tierproof table has, in order.
pub const COLUMNS: [&str; 2] = ["id", "bal"];

impl Default for TableSpec {
    /// The tiered table: `bucket=1`, `merge-engine=deduplicate`, `changelog-producer=input`.
    fn default() -> Self {
        TableSpec::keyed(1, PaimonEngine::Deduplicate, ChangelogProducer::Input)
    }
}

impl TableSpec {
    /// A Paimon primary-key table.
    pub fn keyed(bucket: u32, merge_engine: PaimonEngine, producer: ChangelogProducer) -> Self {
        TableSpec {
            primary_key: true,
            options: vec![
                ("bucket".to_string(), bucket.to_string()),
                ("merge-engine".to_string(), merge_engine.name().to_string()),
                (
                    "changelog-producer".to_string(),
                    producer.name().to_string(),
                ),
            ],
        }
    }

    /// A table without a primary key: it keeps every version written.
    pub fn append_only() -> Self {
        TableSpec {
            primary_key: false,
            options: Vec::new(),
        }
    }

    /// A Fluss primary-key table in one bucket that tiers into the lake (Paimon) within
    /// `freshness` (a Fluss duration such as `1s`).
    pub fn fluss_tiered(freshness: &str) -> Result<Self> {
        TableSpec {
            primary_key: true,
            options: vec![("bucket.num".to_string(), "1".to_string())],
        }
        .with_option("table.datalake.enabled", "true")?
        .with_option("table.datalake.freshness", freshness)
    }

    /// Adds an option after the others; a key already set is refused.
    pub fn with_option(mut self, key: &str, value: &str) -> Result<Self> {
        validate_name(key).map_err(|e| TierproofError::InvalidOption {
            key: key.to_string(),
            reason: e.to_string(),
        })?;
        if self.options.iter().any(|(k, _)| k == key) {
            return Err(TierproofError::InvalidOption {
                key: key.to_string(),
                reason: "it is already set".to_string(),
            });
        }
        if value.chars().any(char::is_control) {
            return Err(TierproofError::InvalidOption {
                key: key.to_string(),
                reason: "the value holds a control character".to_string(),
            });
        }
        self.options.push((key.to_string(), value.to_string()));
        Ok(self)
    }
}
