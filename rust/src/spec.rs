//! The table under proof, as data: columns, key, bucket, merge engine, changelog producer and any
//! extra options. The default spec is the exercise's tiered table.

use crate::error::{Result, TierproofError};
use crate::ident::validate_name;

/// Paimon's `merge-engine` option for a primary-key table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MergeEngine {
    Deduplicate,
    FirstRow,
    PartialUpdate,
    Aggregation,
}

impl MergeEngine {
    pub fn option_value(self) -> &'static str {
        match self {
            MergeEngine::Deduplicate => "deduplicate",
            MergeEngine::FirstRow => "first-row",
            MergeEngine::PartialUpdate => "partial-update",
            MergeEngine::Aggregation => "aggregation",
        }
    }
}

/// Paimon's `changelog-producer` option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangelogProducer {
    None,
    Input,
    Lookup,
    FullCompaction,
}

impl ChangelogProducer {
    pub fn option_value(self) -> &'static str {
        match self {
            ChangelogProducer::None => "none",
            ChangelogProducer::Input => "input",
            ChangelogProducer::Lookup => "lookup",
            ChangelogProducer::FullCompaction => "full-compaction",
        }
    }
}

/// The `(id INT, bal INT)` table, keyed or append-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// `Some` for a primary-key table (keyed on `id`), `None` for an append-only table.
    pub keyed: Option<KeyedOptions>,
    /// Options appended after the generated ones, in order.
    pub extra_options: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyedOptions {
    pub bucket: u32,
    pub merge_engine: MergeEngine,
    pub changelog_producer: ChangelogProducer,
}

/// The two columns every tierproof table has, in order.
pub const COLUMNS: [&str; 2] = ["id", "bal"];

impl Default for TableSpec {
    /// The tiered table: `bucket=1`, `merge-engine=deduplicate`, `changelog-producer=input`.
    fn default() -> Self {
        TableSpec {
            keyed: Some(KeyedOptions {
                bucket: 1,
                merge_engine: MergeEngine::Deduplicate,
                changelog_producer: ChangelogProducer::Input,
            }),
            extra_options: Vec::new(),
        }
    }
}

impl TableSpec {
    /// A table without a primary key: it keeps every version written.
    pub fn append_only() -> Self {
        TableSpec {
            keyed: None,
            extra_options: Vec::new(),
        }
    }

    /// Adds an option after the generated ones; a key the spec already sets is refused.
    pub fn with_option(mut self, key: &str, value: &str) -> Result<Self> {
        validate_name(key).map_err(|e| TierproofError::InvalidOption {
            key: key.to_string(),
            reason: e.to_string(),
        })?;
        if self.options().iter().any(|(k, _)| k == key) {
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
        self.extra_options
            .push((key.to_string(), value.to_string()));
        Ok(self)
    }

    /// Every `WITH` option, generated ones first.
    pub fn options(&self) -> Vec<(String, String)> {
        let mut options = Vec::new();
        if let Some(k) = &self.keyed {
            options.push(("bucket".to_string(), k.bucket.to_string()));
            options.push((
                "merge-engine".to_string(),
                k.merge_engine.option_value().to_string(),
            ));
            options.push((
                "changelog-producer".to_string(),
                k.changelog_producer.option_value().to_string(),
            ));
        }
        options.extend(self.extra_options.iter().cloned());
        options
    }
}

impl std::str::FromStr for MergeEngine {
    type Err = TierproofError;

    fn from_str(s: &str) -> Result<Self> {
        [
            MergeEngine::Deduplicate,
            MergeEngine::FirstRow,
            MergeEngine::PartialUpdate,
            MergeEngine::Aggregation,
        ]
        .into_iter()
        .find(|e| e.option_value() == s)
        .ok_or_else(|| TierproofError::InvalidOption {
            key: "merge-engine".to_string(),
            reason: format!(
                "{s:?} is not one of deduplicate, first-row, partial-update, aggregation"
            ),
        })
    }
}

impl std::str::FromStr for ChangelogProducer {
    type Err = TierproofError;

    fn from_str(s: &str) -> Result<Self> {
        [
            ChangelogProducer::None,
            ChangelogProducer::Input,
            ChangelogProducer::Lookup,
            ChangelogProducer::FullCompaction,
        ]
        .into_iter()
        .find(|p| p.option_value() == s)
        .ok_or_else(|| TierproofError::InvalidOption {
            key: "changelog-producer".to_string(),
            reason: format!("{s:?} is not one of none, input, lookup, full-compaction"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        assert_eq!(
            "first-row".parse::<MergeEngine>().unwrap(),
            MergeEngine::FirstRow
        );
        assert_eq!(
            "full-compaction".parse::<ChangelogProducer>().unwrap(),
            ChangelogProducer::FullCompaction
        );
        let e = "dedup".parse::<MergeEngine>().unwrap_err();
        assert!(e.to_string().contains("\"dedup\""), "{e}");
    }
}
