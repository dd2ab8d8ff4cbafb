/**
 * The counterexample search: draws tables, workloads and faults, runs trials, shrinks what fails.
 * Floor 8: imports proof and below; never matrix or anything above.
 */
package dev.tierproof.search;
