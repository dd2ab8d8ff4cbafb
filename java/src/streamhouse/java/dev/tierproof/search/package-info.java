/**
 * The counterexample search: draws tables, workloads and faults, runs trials, shrinks what fails.
 * Floor 7: imports fluss and below; never audit, matrix or anything above.
 */
package dev.tierproof.search;
