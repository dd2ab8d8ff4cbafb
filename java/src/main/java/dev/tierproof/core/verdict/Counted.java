package dev.tierproof.core.verdict;

/** A row and how many more times one side holds it than the other. */
public record Counted(TableRow row, long count) {}
