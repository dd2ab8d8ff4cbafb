package dev.tierproof.core;

import dev.tierproof.core.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A workload for any table, held by the Rust core behind a handle: the DDL and the workload file
 * cross JNI once, as text and bytes; the statements, the sentinel and the queries come back as
 * SQL; each read streams in, a compact batch at a time, and is folded in the core as it arrives
 * ({@link ReadBuffer}); the verdict comes back bound into records. Close it (it is
 * {@link AutoCloseable}; closing twice is fine, and a closed workload refuses every call).
 */
public final class Workload implements AutoCloseable {
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

    /**
     * What a read is; the core decides how strictly it is judged (the rules per kind live in the
     * Rust {@code Fold}). The order is the core's code.
     */
    public enum Source {
        /** A batch read, or a stream that starts from a full snapshot: each key once. */
        SNAPSHOT,
        /** A streaming replay of the lake table's changes from its first snapshot. */
        REPLAY,
        /** Fluss's log of the table from the earliest offset: a complete changelog. */
        LOG
    }

    /** An operation of the workload as text, for a producer that writes it itself. */
    public record Operation(boolean delete, String[] cells) {}

    /** A statement of the workload, with its label for progress and messages. */
    public record Statement(String label, String sql) {}

    private long handle;

    private Workload(long handle) {
        this.handle = handle;
    }

    /** Checks the DDL alone (what {@link #open} checks first); bad input names what is wrong. */
    public static void checkTable(Target target, String ddl) {
        nativeCheckTable(target.ordinal(), Objects.requireNonNull(ddl, "ddl"));
    }

    /** Checks the DDL and parses the workload CSV against it; bad input names what is wrong. */
    public static Workload open(Target target, String ddl, byte[] csv) {
        return new Workload(nativeOpen(target.ordinal(), Objects.requireNonNull(ddl, "ddl"), null,
                Objects.requireNonNull(csv, "csv")));
    }

    /**
     * A table with no workload: for reads of a table someone else wrote, judged with
     * {@link #judgeAgainstFirst}. The DDL is checked as {@link #open} checks it.
     */
    public static Workload ofTable(Target target, String ddl) {
        return new Workload(nativeOpen(target.ordinal(), Objects.requireNonNull(ddl, "ddl"), null, null));
    }

    /**
     * As {@link #open}, but the reads are judged against what {@code promiseDdl}'s table (the
     * same columns; another key or engine) would hold: the matrix's append-only variant against
     * the last write per key of the keyed table.
     */
    public static Workload openJudgedAs(Target target, String ddl, String promiseDdl, byte[] workload) {
        return new Workload(nativeOpen(target.ordinal(), Objects.requireNonNull(ddl, "ddl"),
                Objects.requireNonNull(promiseDdl, "promiseDdl"), Objects.requireNonNull(workload, "workload")));
    }

    /** Values each partition column of a generated workload takes: a handful, as users' tables have. */
    public static final int PARTITION_VALUES = 4;

    /**
     * A seeded random workload for the table: {@code n} operations over about {@code keys} keys,
     * with deletes if {@code deletes} and the table takes them, each partition column taking
     * {@link #PARTITION_VALUES} values.
     */
    public static Workload generate(Target target, String ddl, int n, int keys, long seed, boolean deletes) {
        return generate(target, ddl, n, keys, seed, deletes, PARTITION_VALUES);
    }

    /**
     * As {@link #generate(Target, String, int, int, long, boolean)}, each partition column taking
     * at most {@code partitionValues} values (0: as many as the keys make, a partition per key or so).
     */
    public static Workload generate(Target target, String ddl, int n, int keys, long seed, boolean deletes,
            int partitionValues) {
        return new Workload(nativeGenerate(target.ordinal(), Objects.requireNonNull(ddl, "ddl"), null, n, keys,
                seed, deletes, partitionValues));
    }

    /**
     * A seeded random workload made for {@code promiseDdl}'s table (without deletes), written to
     * the DDL's table and judged by the promise's, as {@link #openJudgedAs} does.
     */
    public static Workload generateJudgedAs(Target target, String ddl, String promiseDdl, int n, int keys,
            long seed) {
        return generateJudgedAs(target, ddl, promiseDdl, n, keys, seed, PARTITION_VALUES);
    }

    /** As {@link #generateJudgedAs(Target, String, String, int, int, long)}, with at most {@code partitionValues}. */
    public static Workload generateJudgedAs(Target target, String ddl, String promiseDdl, int n, int keys,
            long seed, int partitionValues) {
        return new Workload(nativeGenerate(target.ordinal(), Objects.requireNonNull(ddl, "ddl"),
                Objects.requireNonNull(promiseDdl, "promiseDdl"), n, keys, seed, false, partitionValues));
    }

    /**
     * The {@code index}th smaller or simpler workload of the same table (the Rust core proposes
     * them simplest first), judged as this one is; null past the last. The caller closes it.
     */
    public Workload shrinkCandidate(int index) {
        long candidate = nativeShrinkCandidate(handle(), index);
        return candidate == 0 ? null : new Workload(candidate);
    }

    /**
     * Why a streaming replay of the Paimon table does not promise the merged state (an engine
     * other than deduplicate with a changelog producer that streams raw writes), or null when it
     * does and the replays are judged.
     */
    public String replayNotPromised() {
        return nativeReplayNotPromised(handle());
    }

    /** Why one ordered job cannot write this workload as its statements would, or null when it can. */
    public String orderedWriteRefused() {
        return nativeOrderedWriteRefused(handle());
    }

    /** The workload as a CSV that {@link #open} reads back (for reproducers). */
    public String workloadCsv() {
        return nativeWorkloadCsv(handle());
    }

    synchronized long handle() {
        if (handle == 0) {
            throw new IllegalStateException("the workload is closed");
        }
        return handle;
    }

    /** Why the table takes no deletes (so a random workload has none), or null when it does. */
    public String deletesRefused() {
        return nativeDeletesRefused(handle());
    }

    /**
     * Operations {@code from} to {@code from + count} (fewer at the end), their cells as canonical
     * text in column order (null is NULL; a delete's non-key cells are null).
     */
    public List<Operation> operations(int from, int count) {
        String[] flat = nativeOperationCells(handle(), from, count);
        int width = columns().size() + 1;
        List<Operation> out = new ArrayList<>(flat.length / width);
        for (int i = 0; i < flat.length; i += width) {
            out.add(new Operation("delete".equals(flat[i]), Arrays.copyOfRange(flat, i + 1, i + width)));
        }
        return out;
    }

    /**
     * The first {@code n} operations, of the same table and judged the same way: what a read
     * taken after them (a checkpoint between rounds) must hold. The caller closes it.
     */
    public Workload prefix(int n) {
        return new Workload(nativePrefix(handle(), n));
    }

    /**
     * The operations as statements write them, for one ordered job to write the same: a delete
     * carries the row it removes, a delete of an absent key is left out. Judge with this
     * workload, not with the one returned; the caller closes it.
     */
    public Workload asWritten() {
        return new Workload(nativeAsWritten(handle()));
    }

    /**
     * The operations at {@code positions} (0-based, strictly ascending), in order, of the same
     * table and judged the same way: what a lake snapshot holding exactly those writes must hold
     * (a consistent cut). The caller closes it.
     */
    public Workload subset(int[] positions) {
        return new Workload(nativeSubset(handle(), Objects.requireNonNull(positions, "positions")));
    }

    /**
     * The same workload with the writes at {@code positions} (0-based, strictly ascending) of
     * unknown outcome (their acknowledgement lost): each may or may not have taken effect, and
     * the reads are wrong only when no choice of which did explains them. The caller closes it.
     */
    public Workload uncertain(int[] positions) {
        return outcomes(positions, new int[0]);
    }

    /**
     * As {@link #uncertain}, with the writes at {@code rejected} (0-based, strictly ascending, none
     * of {@code unknown}) reported failed by the client: judged as not applied, unless only their
     * taking effect explains the reads; then the verdict names them, each a finding. The caller
     * closes it.
     */
    public Workload outcomes(int[] unknown, int[] rejected) {
        return new Workload(nativeUncertain(handle(), Objects.requireNonNull(unknown, "unknown"),
                Objects.requireNonNull(rejected, "rejected")));
    }

    /**
     * The same workload with about {@code percent} % of its operations (0 to 100) on one hot key,
     * the first operation's, deterministic for {@code seed}: a popular account, a busy sensor. The
     * rest of each operation stays. The caller closes it.
     */
    public Workload hotKeys(int percent, long seed) {
        return new Workload(nativeHotKeys(handle(), percent, seed));
    }

    /**
     * The same workload with about one in four values of its unbounded {@code STRING} columns
     * (not a key or partition column) long: a kilobyte, tens of kilobytes or a few hundred,
     * deterministic for {@code seed}. The caller closes it.
     */
    public Workload longTexts(long seed) {
        return new Workload(nativeLongTexts(handle(), seed));
    }

    /**
     * The workload's last column as a column added later ({@code ALTER TABLE … ADD}, the one
     * schema change Fluss 0.9.1 takes): refused, naming the column, when Fluss cannot add it.
     *
     * @param name the column
     * @param type its type as the DDL writes it
     * @param ddlBefore the {@code CREATE TABLE} without it
     * @param alter the statement that adds it
     * @param selectBefore a {@code SELECT} of every column before it is there (it reads NULL)
     */
    public record AddedColumn(String name, String type, String ddlBefore, String alter, String selectBefore) {}

    /** This workload's last column as one added later; refused when Fluss cannot add it. */
    public AddedColumn addedColumn() {
        String[] a = nativeAddedColumn(handle());
        return new AddedColumn(a[0], a[1], a[2], a[3], a[4]);
    }

    /**
     * The same workload when its last column is added just before operation {@code at}
     * (1-based): every upsert before it writes NULL there, as a row written without the column
     * reads. The caller closes it.
     */
    public Workload withAddedColumn(int at) {
        return new Workload(nativeWithAddedColumn(handle(), at));
    }

    /** A read that asks for less than every row and column: {@code count}, a filter, a projection. */
    public record ViewQuery(String name, String sql) {}

    /**
     * The table's view reads, in order (their index opens them, {@link Reads#openView}): a
     * {@code COUNT(*)}, a filter on a key column, one on a partition, a projection.
     */
    public List<ViewQuery> viewQueries() {
        String[] flat = nativeViewQueries(handle());
        List<ViewQuery> out = new ArrayList<>();
        for (int i = 0; i + 1 < flat.length; i += 2) {
            out.add(new ViewQuery(flat[i], flat[i + 1]));
        }
        return out;
    }

    /** The same workload and table under another name ({@code table} or {@code db.table}). */
    public Workload renamed(String table) {
        return new Workload(nativeRenamed(handle(), Objects.requireNonNull(table, "table")));
    }

    /** How many operations the workload holds. */
    public int operations() {
        return nativeOperations(handle());
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

    /**
     * A read about to stream in: its changes go to the core in batches as they arrive and are
     * folded there at once, so a read of millions of changes is never held whole in Java. Close
     * it after judging.
     */
    public ReadBuffer newRead(String name, Source source) {
        return new ReadBuffer(name, nativeNewRead(handle(), Objects.requireNonNull(name, "name"),
                source.ordinal(), null, 1));
    }

    /** The verdict over reads that streamed in, in this order: each against the expected state and the first. */
    public Verdict judge(List<ReadBuffer> reads) {
        return judge(reads, List.of());
    }

    /**
     * As {@link #judge(List)}, with the writes the server did not acknowledge (the producer's
     * report): any of them makes the verdict inconsistent.
     */
    public Verdict judge(List<ReadBuffer> reads, List<String> failures) {
        return judge(reads, failures, false);
    }

    /**
     * The verdict of an audit ({@link #ofTable}): the first of {@code reads} is the reference every
     * other must equal, each still folded by its own source's rules; with what failed besides.
     */
    public Verdict judgeAgainstFirst(List<ReadBuffer> reads, List<String> failures) {
        return judge(reads, failures, true);
    }

    private Verdict judge(List<ReadBuffer> reads, List<String> failures, boolean againstFirst) {
        long[] pointers = new long[reads.size()];
        for (int i = 0; i < pointers.length; i++) {
            pointers[i] = reads.get(i).flushed();
        }
        return Verdict.fromJson(nativeJudge(handle(), pointers, failures.toArray(String[]::new), againstFirst));
    }

    /** The reads of one proof, judged together and closed together. */
    public Reads reads() {
        Verdict.warmUp();
        return new Reads(null, 1);
    }

    /**
     * The reads of an audit too large for memory: each read's changes go to disk, into
     * {@code partitions} files in {@code spillDirectory} (which must exist; nothing there is
     * overwritten) split by key, and they are judged against the first read one partition at a
     * time. Closing a read removes its files. With 1 partition, as {@link #reads()}.
     */
    public Reads reads(Path spillDirectory, int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException(partitions + " partitions: at least 1");
        }
        if (partitions == 1) {
            return reads();
        }
        Verdict.warmUp();
        return new Reads(Objects.requireNonNull(spillDirectory, "spillDirectory"), partitions);
    }

    /**
     * Sees every change of a read as it crosses to the core: each chunk whole, in the core's wire
     * encoding, so what it keeps can be judged again ({@link ReadBuffer#addEncoded}).
     */
    @FunctionalInterface
    public interface ChangeTap {
        void chunk(byte[] encoded, int length);
    }

    /** Opens a {@link ChangeTap} for each read as it opens: its name, source, and view index (-1: the whole table). */
    @FunctionalInterface
    public interface Taps {
        ChangeTap open(String name, Source source, int view);
    }

    /** The reads of one proof: opened in the order they are judged, all closed at once. */
    public final class Reads implements AutoCloseable {
        private final List<ReadBuffer> reads = new ArrayList<>();
        private Taps taps;
        /** Where reads judged partition by partition put their changes, or null: folded in memory. */
        private final Path spillDirectory;
        private final int partitions;

        private Reads(Path spillDirectory, int partitions) {
            this.spillDirectory = spillDirectory;
            this.partitions = partitions;
        }

        /** A new read, judged after the ones opened before it (the first is every other's reference). */
        public synchronized ReadBuffer open(String name, Source source) {
            ReadBuffer r = new ReadBuffer(name, nativeNewRead(handle(), Objects.requireNonNull(name, "name"),
                    source.ordinal(), spillDirectory == null ? null : spillDirectory.toString(), partitions));
            r.tap = taps == null ? null : taps.open(name, source, -1);
            reads.add(r);
            return r;
        }

        /** Every read opened from now on shows its changes to a tap {@code taps} opens for it. */
        public synchronized void tap(Taps taps) {
            this.taps = taps;
        }

        /**
         * A view read ({@link #viewQueries()}'s {@code index}th, named {@code name}), judged
         * against the same view of the expected state and of the first read.
         */
        public synchronized ReadBuffer openView(int index, String name) {
            ReadBuffer r = new ReadBuffer(name, nativeNewViewRead(handle(), Objects.requireNonNull(name, "name"),
                    index));
            r.tap = taps == null ? null : taps.open(name, Source.SNAPSHOT, index);
            reads.add(r);
            return r;
        }

        /** Leaves out a read that failed (its buffer is closed at once). */
        public synchronized void drop(ReadBuffer read) {
            reads.remove(read);
            read.close();
        }

        public synchronized boolean isEmpty() {
            return reads.isEmpty();
        }

        public synchronized Verdict judge() {
            return Workload.this.judge(reads);
        }

        /** The verdict, with the writes the server did not acknowledge. */
        public synchronized Verdict judge(List<String> failures) {
            return Workload.this.judge(reads, failures);
        }


        @Override
        public synchronized void close() {
            reads.forEach(ReadBuffer::close);
            reads.clear();
        }
    }

    /**
     * A read's changes on their way to the core, encoded compactly (see the core's
     * {@code model/wire.rs}): per change its Flink {@code RowKind} byte, then per column a
     * varint (0 for NULL, else the UTF-8 length plus one) and the text. Sent a batch at a time.
     */
    public final class ReadBuffer implements AutoCloseable {
        private static final int BATCH_BYTES = 1 << 20;
        private final String name;
        private long read;
        private byte[] buffer = new byte[8192];
        private int length;
        private volatile long size;
        /** Sees each chunk before it goes to the core; null: none. */
        private ChangeTap tap;

        private ReadBuffer(String name, long read) {
            this.name = name;
            this.read = read;
        }

        public String name() {
            return name;
        }

        /** Changes added so far. */
        public long size() {
            return size;
        }

        /** One change: its kind and its fields as text in column order ({@code null} is NULL). */
        public synchronized void add(byte kind, String[] fields) {
            put(kind);
            for (String f : fields) {
                if (f == null) {
                    put((byte) 0);
                    continue;
                }
                byte[] utf8 = f.getBytes(StandardCharsets.UTF_8);
                long n = utf8.length + 1L;
                while (n >= 0x80) {
                    put((byte) (n & 0x7f | 0x80));
                    n >>>= 7;
                }
                put((byte) n);
                ensure(utf8.length);
                System.arraycopy(utf8, 0, buffer, length, utf8.length);
                length += utf8.length;
            }
            size++;
            if (length >= BATCH_BYTES) {
                flush();
            }
        }

        private void put(byte b) {
            ensure(1);
            buffer[length++] = b;
        }

        private void ensure(int more) {
            if (length + more > buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, length + more));
            }
        }

        private synchronized void flush() {
            if (length > 0) {
                if (tap != null) {
                    tap.chunk(buffer, length);
                }
                nativeAppend(handle(), pointer(), buffer, length);
                length = 0;
            }
        }

        /**
         * Changes as a {@link ChangeTap} saw them: one chunk of whole changes in the core's wire
         * encoding (not counted in {@link #size}).
         */
        public synchronized void addEncoded(byte[] chunk) {
            flush();
            if (chunk.length > 0) {
                nativeAppend(handle(), pointer(), chunk, chunk.length);
            }
        }

        synchronized long flushed() {
            flush();
            return pointer();
        }

        private long pointer() {
            if (read == 0) {
                throw new IllegalStateException("the read " + name + " is closed");
            }
            return read;
        }

        @Override
        public synchronized void close() {
            long r = read;
            read = 0;
            if (r != 0) {
                nativeCloseRead(r);
            }
        }
    }

    @Override
    public synchronized void close() {
        long h = handle;
        handle = 0;
        if (h != 0) {
            nativeClose(h);
        }
    }

    /** {@code promiseDdl} null: judged against the table's own merge rules. */
    private static native long nativeOpen(int target, String ddl, String promiseDdl, byte[] csv);

    private static native long nativeGenerate(int target, String ddl, String promiseDdl, int n, int keys,
            long seed, boolean deletes, int partitionValues);

    private static native long nativeShrinkCandidate(long handle, int index);

    private static native String nativeReplayNotPromised(long handle);

    private static native String nativeOrderedWriteRefused(long handle);

    private static native long nativeAsWritten(long handle);

    private static native String[] nativeColumns(long handle);

    private static native int nativeOperations(long handle);

    private static native long nativePrefix(long handle, int n);

    private static native long nativeSubset(long handle, int[] positions);

    private static native long nativeUncertain(long handle, int[] unknown, int[] rejected);

    private static native long nativeHotKeys(long handle, int percent, long seed);

    private static native String[] nativeAddedColumn(long handle);

    private static native long nativeLongTexts(long handle, long seed);

    private static native long nativeWithAddedColumn(long handle, int at);

    private static native long nativeRenamed(long handle, String table);

    private static native String[] nativeOperationCells(long handle, int from, int count);

    private static native void nativeCheckTable(int target, String ddl);

    private static native String nativeDeletesRefused(long handle);

    private static native String nativeWorkloadCsv(long handle);

    private static native void nativeClose(long handle);

    private static native CheckedDdl nativeTable(long handle);

    private static native String[] nativeStatements(long handle, int rowsPerInsert);

    private static native String nativeSentinelInsert(long handle, long watermark);

    private static native String nativeSelectAll(long handle, String[] options);

    private static native int nativePartitionsFor(long changes, long rows);

    /**
     * How many partitions the reads of a log of {@code changes} changes are judged in so that each
     * holds about {@code rows} rows (the core decides, within its limit of files per read).
     */
    public static int partitionsFor(long changes, long rows) {
        return nativePartitionsFor(changes, rows);
    }

    /** A read; with a spill directory (else null), judged partition by partition in {@code partitions}. */
    private static native long nativeNewRead(long handle, String name, int source, String spillDirectory,
            int partitions);

    private static native String[] nativeViewQueries(long handle);

    private static native long nativeNewViewRead(long handle, String name, int index);

    private static native void nativeAppend(long handle, long read, byte[] batch, int length);

    private static native void nativeCloseRead(long read);

    private static native String nativeJudge(long handle, long[] reads, String[] failures, boolean againstFirst);
}
