/**
 * The bench: the figures docs/measured.md holds, each against its goal, from one run.
 * Floor 9: imports search and below.
 */
package dev.tierproof.bench;
