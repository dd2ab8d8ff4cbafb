/**
 * Flink SQL functions (tier_ddl, upsert_insert) over the Rust core, for users' own SQL.
 * Floor 1: imports the core only.
 */
package dev.tierproof.udf;
