/**
 * Fluss's side: its clusters (embedded, remote; the processes of `cluster up` are deploy's), the
 * client writer and its acknowledgements, the catalog, tiering and the lake's progress.
 * Floor 6: imports nemesis and below; the proof that uses all this is proof's.
 */
package dev.tierproof.fluss;
