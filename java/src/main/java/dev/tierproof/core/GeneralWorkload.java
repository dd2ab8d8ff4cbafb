package dev.tierproof.core;

import dev.tierproof.core.verdict.GeneralVerdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A workload for any table, held by the Rust core behind a handle: the DDL and the workload file
 * cross JNI once, as text and bytes; the statements, the sentinel and the queries come back as
 * SQL; the reads go in once, and the verdict comes back bound into records. Close it (it is
 * {@link AutoCloseable}; closing twice is fine, and a closed workload refuses every call).
 */
public final class GeneralWorkload implements AutoCloseable {
    static {
        NativeLibrary.load();
    }

    /** Which system the DDL is written for (its options are that system's). */
    public enum Target {
        /** A Paimon table, proved by {@code prove}. */
        PAIMON,
        /** A Fluss primary-key or log table tiering into Paimon, proved by {@code streamhouse}. */
        FLUSS
    }

    /** A statement of the workload, with its label for progress and messages. */
    public record Statement(String label, String sql) {}

    /** A read as collected: name, whether a snapshot (batch), kinds and cells (flat, null = NULL). */
    public record Read(String name, boolean snapshot, byte[] kinds, String[] cells) {}

    private long handle;

    private GeneralWorkload(long handle) {
        this.handle = handle;
    }

    /** Checks the DDL and parses the workload CSV against it; bad input names what is wrong. */
    public static GeneralWorkload open(Target target, String ddl, byte[] csv) {
        return new GeneralWorkload(nativeOpen(target.ordinal(), Objects.requireNonNull(ddl, "ddl"),
                Objects.requireNonNull(csv, "csv")));
    }

    /**
     * As {@link #open}, but the reads are judged against what {@code promiseDdl}'s table (the
     * same columns; another key or engine) would hold: the matrix's append-only variant against
     * the last write per key of the keyed table.
     */
    public static GeneralWorkload openJudgedAs(Target target, String ddl, String promiseDdl, byte[] workload) {
        return new GeneralWorkload(nativeOpenJudgedAs(target.ordinal(), Objects.requireNonNull(ddl, "ddl"),
                Objects.requireNonNull(promiseDdl, "promiseDdl"), Objects.requireNonNull(workload, "workload")));
    }

    /** A seeded random workload for the table: {@code n} operations over about {@code keys} keys. */
    public static GeneralWorkload generate(Target target, String ddl, int n, int keys, long seed) {
        return new GeneralWorkload(nativeGenerate(target.ordinal(), Objects.requireNonNull(ddl, "ddl"), n, keys,
                seed));
    }

    /**
     * Why a streaming replay of the Paimon table does not promise the merged state (an engine
     * other than deduplicate with a changelog producer that streams raw writes), or null when it
     * does and the replays are judged.
     */
    public String replayNotPromised() {
        return nativeReplayNotPromised(handle());
    }

    /** The workload as a CSV that {@link #open} reads back (for reproducers). */
    public String workloadCsv() {
        return nativeWorkloadCsv(handle());
    }

    private synchronized long handle() {
        if (handle == 0) {
            throw new IllegalStateException("the workload is closed");
        }
        return handle;
    }

    /** Why the table takes no deletes (so a random workload has none), or null when it does. */
    public String deletesRefused() {
        return nativeDeletesRefused(handle());
    }

    /** The table's column names, in order: what every read selects. */
    public List<String> columns() {
        return List.of(nativeColumns(handle()));
    }

    public CheckedDdl table() {
        return nativeTable(handle());
    }

    public List<Statement> statements(int rowsPerInsert) {
        String[] flat = nativeStatements(handle(), rowsPerInsert);
        List<Statement> out = new ArrayList<>(flat.length / 2);
        for (int i = 0; i < flat.length; i += 2) {
            out.add(new Statement(flat[i], flat[i + 1]));
        }
        return out;
    }

    public String sentinelInsert(long watermark) {
        return nativeSentinelInsert(handle(), watermark);
    }

    public String selectAll(Map<String, String> options) {
        String[] kv = new String[options.size() * 2];
        int i = 0;
        for (Map.Entry<String, String> e : options.entrySet()) {
            kv[i++] = e.getKey();
            kv[i++] = e.getValue();
        }
        return nativeSelectAll(handle(), kv);
    }

    public GeneralVerdict judge(List<Read> reads) {
        int n = reads.size();
        String[] names = new String[n];
        byte[] snapshots = new byte[n];
        byte[][] kinds = new byte[n][];
        String[][] cells = new String[n][];
        for (int i = 0; i < n; i++) {
            Read r = reads.get(i);
            names[i] = r.name();
            snapshots[i] = (byte) (r.snapshot() ? 1 : 0);
            kinds[i] = r.kinds();
            cells[i] = r.cells();
        }
        return GeneralVerdict.fromJson(nativeJudge(handle(), names, snapshots, kinds, cells));
    }

    @Override
    public synchronized void close() {
        long h = handle;
        handle = 0;
        if (h != 0) {
            nativeClose(h);
        }
    }

    private static native long nativeOpen(int target, String ddl, byte[] csv);

    private static native long nativeOpenJudgedAs(int target, String ddl, String promiseDdl, byte[] csv);

    private static native long nativeGenerate(int target, String ddl, int n, int keys, long seed);

    private static native String nativeReplayNotPromised(long handle);

    private static native String[] nativeColumns(long handle);

    private static native String nativeDeletesRefused(long handle);

    private static native String nativeWorkloadCsv(long handle);

    private static native void nativeClose(long handle);

    private static native CheckedDdl nativeTable(long handle);

    private static native String[] nativeStatements(long handle, int rowsPerInsert);

    private static native String nativeSentinelInsert(long handle, long watermark);

    private static native String nativeSelectAll(long handle, String[] options);

    private static native String nativeJudge(long handle, String[] names, byte[] snapshots, byte[][] kinds,
            String[][] cells);
}
