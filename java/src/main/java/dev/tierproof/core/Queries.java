package dev.tierproof.core;

import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/** The reads and the sentinel write of the harness, generated (and quoted) by the Rust core. */
public final class Queries {
    static {
        NativeLibrary.load();
    }

    private Queries() {}

    /** {@code SELECT id, bal FROM table /*+ OPTIONS(...) *}{@code / [WHERE id <> excludeId]}. */
    public static String selectRows(String table, Map<String, String> options, OptionalInt excludeId) {
        String[] kv = new String[options.size() * 2];
        int i = 0;
        for (Map.Entry<String, String> e : options.entrySet()) {
            kv[i++] = e.getKey();
            kv[i++] = e.getValue();
        }
        return nativeSelectRows(
                Objects.requireNonNull(table, "table"), kv, excludeId.isPresent(), excludeId.orElse(0));
    }

    /** An INSERT of {@code (id, 0)} whose Paimon commit carries {@code watermark}. */
    public static String sentinelInsert(String table, int id, long watermark) {
        return nativeSentinelInsert(Objects.requireNonNull(table, "table"), id, watermark);
    }

    /** The smallest id no upsert uses. */
    public static int unusedId(Rows upserts) {
        return nativeUnusedId(upserts.ids(), upserts.bals(), upserts.balIsNull());
    }

    /** The parts of a table path ({@code table}, {@code db.table} or {@code catalog.db.table}). */
    public static String[] pathParts(String table) {
        return nativePathParts(Objects.requireNonNull(table, "table"));
    }

    /** The parts (e.g. database and table), each checked and quoted, as one path for SQL. */
    public static String quotedPath(String... parts) {
        return nativeQuotedPath(parts);
    }

    private static native String nativeQuotedPath(String[] parts);

    private static native String[] nativePathParts(String table);

    private static native String nativeSelectRows(String table, String[] options, boolean hasExclude, int excludeId);

    private static native String nativeSentinelInsert(String table, int id, long watermark);

    private static native int nativeUnusedId(int[] ids, int[] bals, boolean[] balIsNull);
}
