//! The oracle: what the table must hold after the upserts, what a read's changelog folds to, and
//! an exact, order-insensitive comparison of row sets.

pub mod changelog;
pub mod expected;
pub mod multiset;
pub mod radix;
pub mod verdict;

pub use changelog::{fold_keyed, fold_multiset, Anomaly, Change, Folded, RowKind};
pub use expected::{engine_state, latest_per_id};
pub use multiset::{diff, diff_hashmap_baseline, Counted, Diff};
pub use verdict::{judge, judge_against, Check, Read, Verdict};
