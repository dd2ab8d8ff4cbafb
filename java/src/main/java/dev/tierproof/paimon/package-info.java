/**
 * Paimon: the lake's location, its catalog and tables, snapshot reads, the core proof of a Paimon table.
 * Floor 4: imports flink and below.
 */
package dev.tierproof.paimon;
