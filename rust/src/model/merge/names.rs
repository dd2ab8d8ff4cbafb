//! Paimon's merge engines and changelog producers by the names their options take: the one list
//! the exercise's table, a table spec, the matrix's variants and the merge rules all read.

use crate::error::{Result, TierproofError};

/// Paimon's `merge-engine` option for a primary-key table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaimonEngine {
    Deduplicate,
    FirstRow,
    PartialUpdate,
    Aggregation,
}

impl PaimonEngine {
    pub const ALL: [PaimonEngine; 4] = [
        PaimonEngine::Deduplicate,
        PaimonEngine::FirstRow,
        PaimonEngine::PartialUpdate,
        PaimonEngine::Aggregation,
    ];

    /// The option's value: `first-row`.
    pub const fn name(self) -> &'static str {
        match self {
            PaimonEngine::Deduplicate => "deduplicate",
            PaimonEngine::FirstRow => "first-row",
            PaimonEngine::PartialUpdate => "partial-update",
            PaimonEngine::Aggregation => "aggregation",
        }
    }

    /// The engine named `name`, if Paimon has one by that name.
    pub fn named(name: &str) -> Option<PaimonEngine> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }

    /// Every name, for a refusal: `deduplicate, first-row, partial-update, aggregation`.
    pub fn names() -> String {
        Self::ALL.map(Self::name).join(", ")
    }
}

impl std::str::FromStr for PaimonEngine {
    type Err = TierproofError;

    fn from_str(s: &str) -> Result<Self> {
        Self::named(s).ok_or_else(|| TierproofError::InvalidOption {
            key: "merge-engine".to_string(),
            reason: format!("{s:?} is not one of {}", Self::names()),
        })
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
    pub const ALL: [ChangelogProducer; 4] = [
        ChangelogProducer::None,
        ChangelogProducer::Input,
        ChangelogProducer::Lookup,
        ChangelogProducer::FullCompaction,
    ];

    /// The option's value: `full-compaction`.
    pub const fn name(self) -> &'static str {
        match self {
            ChangelogProducer::None => "none",
            ChangelogProducer::Input => "input",
            ChangelogProducer::Lookup => "lookup",
            ChangelogProducer::FullCompaction => "full-compaction",
        }
    }
}

impl std::str::FromStr for ChangelogProducer {
    type Err = TierproofError;

    fn from_str(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| TierproofError::InvalidOption {
                key: "changelog-producer".to_string(),
                reason: format!(
                    "{s:?} is not one of {}",
                    Self::ALL.map(Self::name).join(", ")
                ),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back() {
        assert_eq!(
            "first-row".parse::<PaimonEngine>().unwrap(),
            PaimonEngine::FirstRow
        );
        assert_eq!(
            "full-compaction".parse::<ChangelogProducer>().unwrap(),
            ChangelogProducer::FullCompaction
        );
        let e = "dedup".parse::<PaimonEngine>().unwrap_err();
        assert!(e.to_string().contains("\"dedup\""), "{e}");
    }
}
