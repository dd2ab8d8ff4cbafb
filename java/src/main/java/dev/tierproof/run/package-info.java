/**
 * How a run runs: steps bounded by deadlines, the reads side by side, progress, undo, the run directory.
 * Floor 2: imports the core and util.
 */
package dev.tierproof.run;
