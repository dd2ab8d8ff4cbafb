package dev.tierproof.core;

import dev.tierproof.core.verdict.Verdict;
import java.util.List;
import java.util.Objects;

/**
 * The Rust oracle: the expected state after ordered upserts (last value per id), each read's
 * changelog folded (upsert by id for a keyed table, multiset otherwise), every read compared with
 * the expected state and with the first read. The verdict comes back as JSON.
 */
public final class Oracle {
    static {
        NativeLibrary.load();
    }

    private Oracle() {}

    public static Verdict judge(Rows upserts, boolean keyed, List<Changelog> reads) {
        return judge(upserts, null, keyed, reads);
    }

    /**
     * Judges against a merge engine's state ({@code deduplicate}, {@code first-row},
     * {@code partial-update}, {@code aggregation} with a sum), or the last value per id when
     * {@code engine} is null.
     */
    public static Verdict judge(Rows upserts, String engine, boolean keyed, List<Changelog> reads) {
        Objects.requireNonNull(upserts, "upserts");
        int n = reads.size();
        String[] names = new String[n];
        byte[][] kinds = new byte[n][];
        int[][] ids = new int[n][];
        int[][] bals = new int[n][];
        boolean[][] nulls = new boolean[n][];
        for (int i = 0; i < n; i++) {
            Changelog c = reads.get(i);
            Rows rows = c.rows();
            names[i] = c.name();
            kinds[i] = c.kinds();
            ids[i] = rows.ids();
            bals[i] = rows.bals();
            nulls[i] = rows.balIsNull();
        }
        return Verdict.fromJson(nativeJudge(
                upserts.ids(), upserts.bals(), upserts.balIsNull(), keyed, engine, names, kinds, ids, bals, nulls));
    }

    private static native String nativeJudge(
            int[] upsertIds,
            int[] upsertBals,
            boolean[] upsertBalIsNull,
            boolean keyed,
            String engine,
            String[] names,
            byte[][] kinds,
            int[][] ids,
            int[][] bals,
            boolean[][] balIsNull);
}
