package dev.tierproof.core;

import java.util.Objects;

/** Where upserts come from: CSV ({@code id,bal}, empty bal = NULL) or a seeded generator. */
public final class Workloads {
    static {
        NativeLibrary.load();
    }

    private Workloads() {}

    public static Rows parseCsv(String text) {
        return nativeParseCsv(Objects.requireNonNull(text, "csv"));
    }

    /** {@code count} upserts over ids {@code 0..keys-1}; the same for the same seed everywhere. */
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

    private static native Rows nativeParseCsv(String text);

    private static native Rows nativeRandom(int count, int keys, long seed);

    private static native String nativeToCsv(int[] ids, int[] bals, boolean[] balIsNull);
}
