/**
 * Every (merge engine, changelog producer) variant of one table, each read three ways, as a grid.
 * Floor 8: imports proof and below; never search or anything above.
 */
package dev.tierproof.matrix;
