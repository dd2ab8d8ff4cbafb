package dev.tierproof.flink;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What one read of any table delivered: each change's Flink {@code RowKind} byte and its fields as
 * text ({@link FlinkValues}), in arrival order, flat (a row's fields after another's).
 */
public final class TextChanges {
    private final String name;
    private final ByteArrayOutputStream kinds = new ByteArrayOutputStream();
    private final List<String> cells = new ArrayList<>();
    private long size;

    public TextChanges(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public synchronized void add(byte kind, String[] fields) {
        kinds.write(kind);
        cells.addAll(Arrays.asList(fields)); // fields may be null (NULL)
        size++;
    }

    public synchronized long size() {
        return size;
    }

    public synchronized byte[] kinds() {
        return kinds.toByteArray();
    }

    public synchronized String[] cells() {
        return cells.toArray(String[]::new);
    }
}
