/**
 * Flink: the MiniCluster, statements, the ordered write and the bounded reads, Flink's values.
 * Floor 3: imports run and below.
 */
package dev.tierproof.flink;
