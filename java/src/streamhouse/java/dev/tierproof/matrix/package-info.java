/**
 * Every (merge engine, changelog producer) variant of one table, each read three ways, as a grid.
 * Floor 7: imports fluss and below; never search, audit or anything above.
 */
package dev.tierproof.matrix;
