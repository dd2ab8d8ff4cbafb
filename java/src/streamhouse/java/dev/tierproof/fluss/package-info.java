/**
 * Fluss: its clusters (embedded, remote; the processes of `cluster up` are deploy's), the client writer,
 * tiering, and the streamhouse proof.
 * Floor 6: imports nemesis and below.
 */
package dev.tierproof.fluss;
