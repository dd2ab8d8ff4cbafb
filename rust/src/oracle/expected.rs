//! The state a primary-key table with the deduplicate engine must hold after ordered upserts.

use crate::row::Row;
use std::collections::HashMap;

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
