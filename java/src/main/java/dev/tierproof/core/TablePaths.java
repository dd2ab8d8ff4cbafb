package dev.tierproof.core;

import java.util.Objects;

/** Table paths split and quoted by the Rust core, so a name can never reach outside its quotes. */
public final class TablePaths {
    static {
        NativeLibrary.load();
    }

    private TablePaths() {}

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
}
