/**
 * Small helpers with no notion of a proof: directories, host and port, polling, a child JVM's flags.
 * Floor 1: imports the core only.
 */
package dev.tierproof.util;
