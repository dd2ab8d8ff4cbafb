/**
 * The verdict as the Rust core gives it: typed records, read as they are and never re-decided.
 * Part of the core's floor: imports the core only.
 */
package dev.tierproof.core.verdict;
