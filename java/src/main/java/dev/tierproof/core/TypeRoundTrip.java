package dev.tierproof.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Typed values through an engine and back, judged by the Rust core: for a {@code CREATE TABLE}
 * of any supported column types and rows as text ({@code null} is NULL), the {@code INSERT} of
 * typed literals, and every value that a reader returned differently (compared canonically).
 */
public final class TypeRoundTrip {
    static {
        NativeLibrary.load();
    }

    private TypeRoundTrip() {}

    /** One {@code INSERT … VALUES} of the rows, every value a literal of its column's type. */
    public static String insertStatement(String ddl, List<String[]> rows) {
        return nativeInsertStatement(Objects.requireNonNull(ddl, "ddl"), flat(rows), width(rows));
    }

    /** Lines naming each value read back unlike it was written; empty when all came back. */
    public static List<String> differences(String ddl, List<String[]> written, List<String[]> read) {
        return Arrays.asList(nativeDifferences(Objects.requireNonNull(ddl, "ddl"), flat(written), flat(read),
                width(written)));
    }

    private static int width(List<String[]> rows) {
        return rows.isEmpty() ? 1 : rows.get(0).length;
    }

    private static String[] flat(List<String[]> rows) {
        return rows.stream().flatMap(Arrays::stream).toArray(String[]::new);
    }

    private static native String nativeInsertStatement(String ddl, String[] cells, int width);

    private static native String[] nativeDifferences(String ddl, String[] written, String[] read, int width);
}
