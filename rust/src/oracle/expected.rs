//! The state a table must hold after ordered upserts, for each of Paimon's merge engines.

use crate::row::Row;
use crate::spec::MergeEngine;
use std::collections::HashMap;

/// What a primary-key table with `engine` holds after `upserts` (`bal` summed for aggregation,
/// as `'fields.bal.aggregate-function'='sum'` does), sorted by id.
pub fn engine_state(engine: MergeEngine, upserts: &[Row]) -> Vec<Row> {
    let mut state: HashMap<i32, Option<i32>> = HashMap::new();
    for u in upserts {
        match engine {
            MergeEngine::Deduplicate => {
                state.insert(u.id, u.bal);
            }
            MergeEngine::FirstRow => {
                state.entry(u.id).or_insert(u.bal);
            }
            // A NULL leaves the old value: only non-NULL fields update.
            MergeEngine::PartialUpdate => {
                let slot = state.entry(u.id).or_insert(None);
                if u.bal.is_some() {
                    *slot = u.bal;
                }
            }
            // NULLs are skipped; an INT sum wraps on overflow as Paimon's Java int addition does.
            MergeEngine::Aggregation => {
                let slot = state.entry(u.id).or_insert(None);
                if let Some(b) = u.bal {
                    *slot = Some(slot.map_or(b, |s| s.wrapping_add(b)));
                }
            }
        }
    }
    let mut rows: Vec<Row> = state
        .into_iter()
        .map(|(id, bal)| Row::new(id, bal))
        .collect();
    rows.sort_unstable();
    rows
}

/// Last value per id, sorted by id.
pub fn latest_per_id(upserts: &[Row]) -> Vec<Row> {
    let mut latest: HashMap<i32, Option<i32>> = HashMap::with_capacity(upserts.len().min(1 << 20));
    for u in upserts {
        latest.insert(u.id, u.bal);
    }
    let mut rows: Vec<Row> = latest
        .into_iter()
        .map(|(id, bal)| Row::new(id, bal))
        .collect();
    rows.sort_unstable();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ups() -> Vec<Row> {
        vec![
            Row::new(1, None),
            Row::new(1, Some(10)),
            Row::new(2, Some(5)),
            Row::new(1, None),
            Row::new(2, Some(i32::MAX)),
            Row::new(1, Some(3)),
        ]
    }

    #[test]
    fn each_engine_has_its_rule() {
        use MergeEngine::*;
        assert_eq!(
            engine_state(Deduplicate, &ups()),
            [Row::new(1, Some(3)), Row::new(2, Some(i32::MAX))]
        );
        assert_eq!(engine_state(Deduplicate, &ups()), latest_per_id(&ups()));
        assert_eq!(
            engine_state(FirstRow, &ups()),
            [Row::new(1, None), Row::new(2, Some(5))]
        );
        assert_eq!(
            engine_state(PartialUpdate, &ups()),
            [Row::new(1, Some(3)), Row::new(2, Some(i32::MAX))]
        );
        // 10 + 3; 5 + MAX wraps.
        assert_eq!(
            engine_state(Aggregation, &ups()),
            [Row::new(1, Some(13)), Row::new(2, Some(i32::MIN + 4))]
        );
    }

    #[test]
    fn partial_update_and_sum_keep_null_until_a_value_comes() {
        let only_null = [Row::new(9, None), Row::new(9, None)];
        for e in [
            MergeEngine::PartialUpdate,
            MergeEngine::Aggregation,
            MergeEngine::FirstRow,
        ] {
            assert_eq!(engine_state(e, &only_null), [Row::new(9, None)]);
        }
    }

    #[test]
    fn later_writes_win_including_null() {
        let ups = [
            Row::new(2, Some(1)),
            Row::new(1, Some(10)),
            Row::new(1, Some(20)),
            Row::new(2, None),
        ];
        assert_eq!(
            latest_per_id(&ups),
            [Row::new(1, Some(20)), Row::new(2, None)]
        );
        assert!(latest_per_id(&[]).is_empty());
    }
}
