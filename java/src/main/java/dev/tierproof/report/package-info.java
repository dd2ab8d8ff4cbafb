/**
 * What a run hands back: the JSON report, the HTML page and its plots.
 * Floor 1: imports the core only; it is given plain values (a warehouse's location as text), never a lake.
 */
package dev.tierproof.report;
