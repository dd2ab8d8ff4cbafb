package dev.tierproof.matrix;

import dev.tierproof.core.CheckedDdl;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.run.DeadlineExceeded;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Consumer;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Runs the same workload through every (merge engine, changelog producer) variant of one table
 * in one warehouse on one MiniCluster, and reads each three ways: batch, a streaming replay from
 * snapshot 1 (bounded by a sentinel commit, rolled back after), and a streaming read from
 * {@code latest-full}. The Rust core holds each variant's workload, writes its statements and
 * judges its reads against what that engine makes of the workload (the append-only variant
 * against the keyed table's last write per key: the promise it breaks); each cell shows that
 * read's own verdict. A variant Paimon refuses (at CREATE, at write or at read time) is a cell
 * too, with Paimon's own message.
 */
public final class MatrixRun {
    public static final List<String> ENGINES =
            List.of("deduplicate", "first-row", "partial-update", "aggregation", "append-only");
    public static final List<String> PRODUCERS = List.of("none", "input", "lookup", "full-compaction");
    public static final List<String> READS = List.of("batch", "streaming-replay", "streaming-latest-full");
    static final String APPEND_ONLY = "append-only";

    /**
     * @param ddl the table whose variants run (its columns, key, partitions and other options)
     * @param workload the workload, CSV or JSON Lines, as {@code Workload.open} reads it
     * @param rowsPerInsert upserts per INSERT: each INSERT is one commit, so several commits show
     *     what producers do between them
     */
    public record Config(String ddl, byte[] workload, List<String> engines, List<String> producers, Path warehouse,
            Duration deadline, int rowsPerInsert) {}

    private MatrixRun() {}

    public static List<Cell> run(FlinkEngine engine, Config cfg, Steps steps) {
        // Every variant's DDL and workload are checked, and no table may exist, before anything runs.
        List<Variant> variants = new ArrayList<>();
        for (String mergeEngine : cfg.engines()) {
            for (String producer : cfg.producers()) {
                variants.add(Variant.of(cfg, mergeEngine, producer));
            }
        }
        String db = null;
        for (Variant v : variants) {
            db = v.database;
            if (PaimonLake.tableExists(cfg.warehouse(), v.database, v.table)) {
                variants.forEach(Variant::close);
                throw new IllegalArgumentException("table " + v.database + "." + v.table + " already exists in the"
                        + " warehouse " + cfg.warehouse() + "; tierproof never writes to a table it did not create:"
                        + " choose another --warehouse");
            }
        }
        try {
            TableEnvironment batch = utc(engine.batchTables());
            PaimonTables.register(batch, cfg.warehouse());
            TableEnvironment streaming = utc(engine.streamingTables());
            PaimonTables.register(streaming, cfg.warehouse());
            String database = db;
            if (database != null && !PaimonLake.databaseExists(cfg.warehouse(), database)) {
                PaimonTables.createDatabaseIfMissing(batch, database);
                steps.undo().created("database " + database + " in the warehouse " + cfg.warehouse(),
                        () -> PaimonLake.dropDatabaseIfEmpty(cfg.warehouse(), database));
            }
            List<Cell> cells = new ArrayList<>();
            int done = 0;
            for (Variant v : variants) {
                steps.progress().step(String.format("[%d/%d] %s + %s", ++done, variants.size(), v.engine,
                        v.producer));
                batch.useDatabase(v.database);
                streaming.useDatabase(v.database);
                cells.addAll(runVariant(steps, batch, streaming, cfg, v));
            }
            return cells;
        } finally {
            variants.forEach(Variant::close);
        }
    }

    /** One variant: its name, its DDL, and its workload held by the core (or why none). */
    private static final class Variant implements AutoCloseable {
        final String engine;
        final String producer;
        final String database;
        final String table;
        final String ddl;
        final Workload workload;
        final String notRun;

        private Variant(String engine, String producer, String database, String table, String ddl,
                Workload workload, String notRun) {
            this.engine = engine;
            this.producer = producer;
            this.database = database;
            this.table = table;
            this.ddl = ddl;
            this.workload = workload;
            this.notRun = notRun;
        }

        static Variant of(Config cfg, String engine, String producer) {
            String name = tableName(engine, producer);
            String ddl = Ddl.matrixVariant(cfg.ddl(), name, engine, producer);
            Workload workload = null;
            String notRun = null;
            try {
                workload = engine.equals(APPEND_ONLY)
                        ? Workload.openJudgedAs(Workload.Target.PAIMON, ddl,
                                Ddl.matrixVariant(cfg.ddl(), name, "deduplicate", producer), cfg.workload())
                        : Workload.open(Workload.Target.PAIMON, ddl, cfg.workload());
            } catch (IllegalArgumentException e) {
                notRun = e.getMessage(); // the table cannot take this workload
            }
            CheckedDdl checked = workload != null ? workload.table() : null;
            String database = checked != null && checked.database() != null ? checked.database()
                    : PaimonTables.DEFAULT_DATABASE;
            return new Variant(engine, producer, database, name, ddl, workload, notRun);
        }

        @Override
        public void close() {
            if (workload != null) {
                workload.close();
            }
        }
    }

    static String tableName(String mergeEngine, String producer) {
        return ("m_" + mergeEngine + "_" + producer).replace('-', '_');
    }

    private static List<Cell> runVariant(Steps steps, TableEnvironment batch, TableEnvironment streaming, Config cfg,
            Variant v) {
        if (v.workload == null) {
            return READS.stream().map(r -> Cell.notRun(v.engine, v.producer, r, v.notRun)).toList();
        }
        String label = v.database + "." + v.table;
        // Recorded before the statement runs (none of the matrix's tables existed at the start).
        steps.undo().created("table " + label + " in the warehouse " + cfg.warehouse(),
                () -> PaimonLake.dropTable(cfg.warehouse(), v.database, v.table));
        try {
            Statements.execute(steps, batch, "CREATE TABLE " + label, v.ddl, cfg.deadline());
        } catch (DeadlineExceeded e) {
            throw e;
        } catch (RuntimeException e) {
            return refusedAll(v, "at CREATE: " + rootCause(e));
        }
        OptionalLong lastWorkloadSnapshot;
        try {
            List<Workload.Statement> statements = v.workload.statements(cfg.rowsPerInsert());
            for (Workload.Statement s : statements) {
                Statements.execute(steps, batch, v.table + ": " + s.label(), s.sql(), cfg.deadline());
            }
            lastWorkloadSnapshot = PaimonLake.latestSnapshotId(cfg.warehouse(), v.database, v.table);
            Statements.execute(steps, batch, v.table + ": the sentinel commit",
                    v.workload.sentinelInsert(PaimonProof.SENTINEL_WATERMARK), cfg.deadline());
        } catch (DeadlineExceeded e) {
            throw e;
        } catch (RuntimeException e) {
            return refusedAll(v, "at write: " + rootCause(e));
        }

        Map<String, String> refusals = new LinkedHashMap<>();
        Map<String, Long> millis = new LinkedHashMap<>();
        Verdict verdict;
        try (Workload.Reads reads = v.workload.reads()) {
            Workload.ReadBuffer batchRead = read(reads, refusals, millis, "batch", Workload.Source.SNAPSHOT,
                    sink -> BoundedRead.collect(steps, batch, v.workload.selectAll(Map.of()), sink,
                            cfg.deadline()));
            read(reads, refusals, millis, "streaming-replay", Workload.Source.REPLAY, sink -> BoundedRead.collect(steps,
                    streaming, v.workload.selectAll(PaimonProof.replayOptions()), sink, cfg.deadline()));
            // latest-full starts with the merged snapshot, then waits for changes that never come:
            // bounded by the batch read's row count (after the writes nothing else changes).
            if (batchRead != null) {
                long count = batchRead.size();
                read(reads, refusals, millis, "streaming-latest-full", Workload.Source.SNAPSHOT, sink -> BoundedRead.collect(steps,
                        streaming, v.workload.selectAll(Map.of("scan.mode", "latest-full",
                                "continuous.discovery-interval", "100ms")), sink, cfg.deadline(), count));
            } else {
                refusals.put("streaming-latest-full", "not run: the batch read was refused");
            }
            // The sentinel leaves the table: it keeps exactly the workload's commits.
            if (lastWorkloadSnapshot.isPresent()) {
                long to = lastWorkloadSnapshot.getAsLong();
                steps.execute(v.table + ": rolling back the sentinel commit", cfg.deadline(),
                        control -> PaimonLake.rollBackTo(cfg.warehouse(), v.database, v.table, to));
            }
            verdict = reads.isEmpty() ? null : reads.judge();
        }
        String notPromised = v.workload.replayNotPromised();
        List<Cell> cells = new ArrayList<>();
        for (String read : READS) {
            if (refusals.containsKey(read)) {
                cells.add(Cell.refused(v.engine, v.producer, read, refusals.get(read)));
            } else {
                cells.add(cell(verdict, v, read, millis.get(read), read.equals("batch") ? null : notPromised));
            }
        }
        return cells;
    }

    /** A cell from the core's verdict on one read: shown, never re-decided. */
    private static Cell cell(Verdict verdict, Variant v, String read, long millis, String notPromised) {
        Verdict.Read folded = verdict.read(read)
                .orElseThrow(() -> new IllegalStateException("the verdict has no read " + read));
        Verdict.Check vsExpected = check(verdict, "expected", read);
        boolean equalsBatch = read.equals("batch") || verdict.checks().stream()
                .filter(c -> c.left().equals("batch") && c.right().equals(read)).allMatch(Verdict.Check::equal);
        String reason = folded.reason();
        if (!folded.consistent() && notPromised != null) {
            reason += " (as Paimon documents: " + notPromised + ")";
        }
        return new Cell(v.engine, v.producer, read, folded.consistent() ? Cell.CONSISTENT : Cell.INCONSISTENT,
                reason, vsExpected.missing().size(), vsExpected.extra().size(), equalsBatch, folded.changes(),
                folded.rowCount(), folded.consistent() ? "" : sample(vsExpected), millis);
    }

    private static Verdict.Check check(Verdict verdict, String left, String right) {
        return verdict.checks().stream().filter(c -> c.left().equals(left) && c.right().equals(right)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no check of " + right + " against " + left));
    }

    private static String sample(Verdict.Check c) {
        StringBuilder sb = new StringBuilder();
        appendRows(sb, "missing", c.missing());
        appendRows(sb, "extra", c.extra());
        return sb.toString().trim();
    }

    private static void appendRows(StringBuilder sb, String label, List<List<String>> rows) {
        if (rows.isEmpty()) {
            return;
        }
        sb.append(label).append(':');
        for (int i = 0; i < rows.size() && i < 4; i++) {
            sb.append(' ').append(Verdict.show(rows.get(i)));
        }
        sb.append(rows.size() > 4 ? " ... " : " ");
    }

    /** A read into a buffer of {@code reads}; one Paimon refuses is a refusal, and is left out. */
    private static Workload.ReadBuffer read(Workload.Reads reads, Map<String, String> refusals,
            Map<String, Long> millis, String name, Workload.Source source, Consumer<Workload.ReadBuffer> read) {
        long t = System.nanoTime();
        Workload.ReadBuffer sink = reads.open(name, source);
        try {
            read.accept(sink);
            return sink;
        } catch (DeadlineExceeded e) {
            throw e;
        } catch (RuntimeException e) {
            reads.drop(sink);
            refusals.put(name, "at read: " + rootCause(e));
            return null;
        } finally {
            millis.put(name, Statements.millisSince(t));
        }
    }

    private static List<Cell> refusedAll(Variant v, String reason) {
        return READS.stream().map(r -> Cell.refused(v.engine, v.producer, r, reason)).toList();
    }

    /** TIMESTAMP_LTZ values are written and read as UTC instants. */
    private static TableEnvironment utc(TableEnvironment tables) {
        tables.getConfig().setLocalTimeZone(ZoneOffset.UTC);
        return tables;
    }

    /** The innermost message: Paimon's own words, without Flink's wrapping. */
    static String rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        m = m.replaceAll("\\s+", " ").trim();
        return m.length() > 300 ? m.substring(0, 300) + "..." : m;
    }
}
