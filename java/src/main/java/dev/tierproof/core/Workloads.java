package dev.tierproof.core;

import java.util.Objects;

/** Where upserts come from: CSV ({@code id,bal}, empty bal = NULL) or a seeded generator. */
public final class Workloads {
    static {
        NativeLibrary.load();
    }

    private Workloads() {}

    /** CSV text; a CSV without upserts is refused. */
    public static Rows parseCsv(String text) {
        return parseCsv(Objects.requireNonNull(text, "csv").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** A CSV file's bytes: invalid UTF-8 is refused with its line. */
    public static Rows parseCsv(byte[] bytes) {
        return nativeParseCsv(Objects.requireNonNull(bytes, "csv"));
    }

    /** {@code count} (at least 1) upserts over {@code keys} ids; the same for the same seed everywhere. */
    public static Rows random(int count, int keys, long seed) {
        return nativeRandom(count, keys, seed);
    }

    public static String toCsv(Rows upserts) {
        return nativeToCsv(upserts.ids(), upserts.bals(), upserts.balIsNull());
    }

    /** The {@code index}-th smaller or simpler candidate of a failing workload; null when none is left. */
    public static Rows shrinkCandidate(Rows upserts, int index) {
        return nativeShrinkCandidate(upserts.ids(), upserts.bals(), upserts.balIsNull(), index);
    }

    private static native Rows nativeShrinkCandidate(int[] ids, int[] bals, boolean[] balIsNull, int index);

    /** A file's bytes as text; invalid UTF-8 is refused naming {@code what} and the line. */
    public static String utf8Text(String what, byte[] bytes) {
        return nativeUtf8Text(Objects.requireNonNull(what, "what"), Objects.requireNonNull(bytes, "bytes"));
    }

    private static native String nativeUtf8Text(String what, byte[] bytes);

    private static native Rows nativeParseCsv(byte[] bytes);

    private static native Rows nativeRandom(int count, int keys, long seed);

    private static native String nativeToCsv(int[] ids, int[] bals, boolean[] balIsNull);
}
