//! A workload from its text, in either form a user may give it: JSON Lines ([`crate::model::workloads::jsonl`]) or
//! CSV ([`crate::model::workloads::workload::parse_workload_csv`]).

use crate::error::Result;
use crate::model::workloads::jsonl::parse_workload_jsonl;
use crate::model::workloads::workload::{parse_workload_csv, Op, Shape};

/// Parses a workload for `shape`: JSON Lines when its first character is `{`, else CSV.
pub fn parse_workload(shape: &Shape, text: &str) -> Result<Vec<Op>> {
    if text.trim_start().starts_with('{') {
        parse_workload_jsonl(shape, text)
    } else {
        parse_workload_csv(shape, text)
    }
}
