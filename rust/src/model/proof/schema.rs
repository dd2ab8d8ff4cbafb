//! The verdict's schema, kept in one place: a verdict with every field set (each `Option` some,
//! each list holding one of what it lists) is written, as the core writes every verdict, to the
//! sample the Java side binds (`java/src/main/resources/dev/tierproof/core/verdict/every-field.json`).
//! This test fails when the struct and the sample differ; Java's `VerdictSchemaTest` fails when
//! its records and the sample differ, field by field. So a field renamed, added, dropped or
//! retyped on either side fails a test, not a run.

use super::judge::{AnomalyOut, Check, ReadVerdict, Verdict};
use super::uncertain::Uncertain;

const SAMPLE: &str = "java/src/main/resources/dev/tierproof/core/verdict/every-field.json";

/// Every field set; a struct literal names every field, so a new one must be set here too.
fn every_field() -> Verdict {
    Verdict {
        consistent: false,
        keyed: true,
        promise: "the last write per key".into(),
        columns: vec!["id".into(), "v".into()],
        expected_rows: vec![
            vec![Some("1".into()), Some("a".into())],
            vec![Some("2".into()), None],
        ],
        expected_row_count: 2,
        all_rows: true,
        reads: vec![ReadVerdict {
            name: "paimon_batch".into(),
            changes: 3,
            rows: Some(vec![vec![Some("1".into()), Some("a".into())]]),
            row_count: 1,
            anomalies: vec![AnomalyOut {
                index: 2,
                change: "-D(2, NULL)".into(),
                reason: "a delete of an absent key".into(),
            }],
            notes: vec!["a note".into()],
            consistent: false,
            reason: "a row is missing".into(),
            fold_ms: 4,
        }],
        checks: vec![Check {
            left: "expected".into(),
            right: "paimon_batch".into(),
            equal: false,
            missing: vec![vec![Some("2".into()), None]],
            extra: vec![vec![Some("3".into()), Some("c".into())]],
            left_out: 1,
        }],
        failures: vec!["rejected write: operation 5".into()],
        uncertain: Some(Uncertain {
            operations: vec![4, 5, 7],
            explained_by: Some("paimon_batch".into()),
            not_applied: vec![7],
            rejected: vec![5],
            rejected_applied: vec![5],
        }),
    }
}

#[test]
fn the_sample_java_binds_is_the_verdict_as_the_core_writes_it() {
    let written =
        serde_json::to_string_pretty(&every_field()).expect("a verdict serializes") + "\n";
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(SAMPLE);
    if std::env::var_os("TIERPROOF_BLESS").is_some() {
        std::fs::write(&path, &written).expect("the sample is written");
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        kept == written,
        "the verdict's schema changed: run `TIERPROOF_BLESS=1 cargo test the_sample_java_binds` to \
         write {SAMPLE} anew, then make dev.tierproof.core.verdict.Verdict bind it (VerdictSchemaTest)"
    );
}
