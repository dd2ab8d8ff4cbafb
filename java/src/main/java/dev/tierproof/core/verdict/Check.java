package dev.tierproof.core.verdict;

/** One comparison: {@code right} against {@code left}, {@code left} taken as the expected side. */
public record Check(String left, String right, boolean equal, long missingCount, long extraCount, Diff diff) {}
