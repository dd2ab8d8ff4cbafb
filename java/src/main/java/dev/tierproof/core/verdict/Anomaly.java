package dev.tierproof.core.verdict;

/** A change that does not fit the state it arrives in: reported, never ignored. */
public record Anomaly(long index, String change, String reason) {}
