/**
 * The pure core's Java face: the Rust core loaded through JNI ({@link dev.tierproof.core.NativeLibrary}),
 * workloads, DDL, rows and the verdict's records. Floor 0: imports nothing of tierproof's.
 */
package dev.tierproof.core;
