//! The oracle's comparison on 10 million rows against the straightforward `HashMap` count, both
//! judging a row set against a shuffled copy of itself (the common, consistent case) and against a
//! copy with one row changed. Prints each median and the ratio at the end.

use criterion::{BenchmarkId, Criterion};
use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;
use tierproof::oracle::{diff, diff_hashmap_baseline};
use tierproof::workload::{random_upserts, SplitMix64};
use tierproof::Row;

const ROWS: usize = 10_000_000;
const GROUP: &str = "oracle_diff_10M";

fn shuffled(rows: &[Row], seed: u64) -> Vec<Row> {
    let mut out = rows.to_vec();
    let mut rng = SplitMix64(seed);
    for i in (1..out.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        out.swap(i, j);
    }
    out
}

fn bench(c: &mut Criterion) {
    let expected = random_upserts(ROWS, 1_000_000, 42).expect("workload");
    let same = shuffled(&expected, 7);
    let mut changed = same.clone();
    changed[ROWS / 2].bal = Some(changed[ROWS / 2].bal.unwrap_or(0).wrapping_add(1));

    let mut g = c.benchmark_group(GROUP);
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(2));
    for (case, actual) in [("equal", &same), ("one_changed", &changed)] {
        g.bench_with_input(BenchmarkId::new("radix", case), actual, |b, a| {
            b.iter(|| black_box(diff(black_box(&expected), black_box(a))))
        });
        g.bench_with_input(
            BenchmarkId::new("hashmap_baseline", case),
            actual,
            |b, a| b.iter(|| black_box(diff_hashmap_baseline(black_box(&expected), black_box(a)))),
        );
    }
    g.finish();
}

/// Reads criterion's median estimate (in ns) of one benchmark.
fn median_ns(function: &str, case: &str) -> Option<f64> {
    let dir = std::env::var_os("CRITERION_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/criterion"));
    let file = dir
        .join(GROUP)
        .join(function)
        .join(case)
        .join("new/estimates.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).ok()?).ok()?;
    json["median"]["point_estimate"].as_f64()
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench(&mut c);
    c.final_summary();
    println!("\n{GROUP}: medians of one run (10 samples each)");
    for case in ["equal", "one_changed"] {
        if let (Some(fast), Some(base)) = (
            median_ns("radix", case),
            median_ns("hashmap_baseline", case),
        ) {
            println!(
                "  {case:<12} radix {:>8.1} ms   hashmap {:>8.1} ms   ratio {:.2}x",
                fast / 1e6,
                base / 1e6,
                base / fast
            );
        }
    }
}
