/**
 * The command line: picocli's commands parse, check their input before any side effect, and hand
 * over to the packages below. Floor 10, the top: imports any package; none imports it.
 */
package dev.tierproof.cli;
