/**
 * Fluss: its clusters (embedded, processes, remote), the client writer, tiering, and the streamhouse proof.
 * Floor 6: imports nemesis and below.
 */
package dev.tierproof.fluss;
