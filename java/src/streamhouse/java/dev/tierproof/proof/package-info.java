/**
 * The streamhouse proof in stages: create the table, write it (a producer, faults on a schedule,
 * checks between rounds), wait for tiering, read it every way, judge the reads and the consistent
 * cuts, report. Floor 7: imports fluss and below; never deploy, audit or anything above.
 */
package dev.tierproof.proof;
