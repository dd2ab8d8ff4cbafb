package dev.tierproof.core;

import java.util.Arrays;

/**
 * What one read delivered: each change's Flink {@code RowKind} byte (0 +I, 1 -U, 2 +U, 3 -D) and
 * its row, in arrival order. Appended from the reading thread, handed to the oracle whole.
 */
public final class Changelog {
    private final String name;
    private byte[] kinds = new byte[64];
    private final Rows.Builder rows = new Rows.Builder();
    private int size;

    public Changelog(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public synchronized void add(byte kind, int id, Integer bal) {
        if (size == kinds.length) {
            kinds = Arrays.copyOf(kinds, size * 2);
        }
        kinds[size++] = kind;
        rows.add(id, bal);
    }

    public synchronized int size() {
        return size;
    }

    synchronized byte[] kinds() {
        return Arrays.copyOf(kinds, size);
    }

    synchronized Rows rows() {
        return rows.build();
    }
}
