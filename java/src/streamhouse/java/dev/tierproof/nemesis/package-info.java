/**
 * Faults: one {@link dev.tierproof.nemesis.Nemesis} per kind, what it strikes and where it can,
 * found through {@link dev.tierproof.nemesis.Fault.Kind}. Floor 5: imports paimon and below, never
 * the cluster code it strikes: that reaches it as {@link dev.tierproof.nemesis.Servers}.
 */
package dev.tierproof.nemesis;
