package dev.tierproof.matrix;

import dev.tierproof.core.Changelog;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.Oracle;
import dev.tierproof.core.Queries;
import dev.tierproof.core.Rows;
import dev.tierproof.core.Upserts;
import dev.tierproof.core.verdict.Anomaly;
import dev.tierproof.core.verdict.Check;
import dev.tierproof.core.verdict.Counted;
import dev.tierproof.core.verdict.Diff;
import dev.tierproof.core.verdict.ReadResult;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.run.DeadlineExceeded;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Runs the same workload through every (merge engine, changelog producer) table in one warehouse
 * on one MiniCluster, and reads each table three ways: batch, a streaming replay from snapshot 1,
 * and a streaming read from {@code latest-full}. Each read is compared with the engine's expected
 * state and with the batch read. A pair Paimon refuses (at CREATE, at write or at read time) is a
 * cell too, with Paimon's own message.
 */
public final class MatrixRun {
    public static final List<String> ENGINES =
            List.of("deduplicate", "first-row", "partial-update", "aggregation", "append-only");
    public static final List<String> PRODUCERS = List.of("none", "input", "lookup", "full-compaction");
    public static final List<String> READS = List.of("batch", "streaming-replay", "streaming-latest-full");
    static final String APPEND_ONLY = "append-only";

    /**
     * @param engines which engines to run (a subset of {@link #ENGINES})
     * @param producers which producers to run (a subset of {@link #PRODUCERS})
     * @param rowsPerInsert upserts per INSERT: each INSERT is one commit, so several commits show
     *     what producers do between them
     */
    public record Config(Rows upserts, List<String> engines, List<String> producers, Path warehouse,
            Duration deadline, int rowsPerInsert) {}

    private MatrixRun() {}

    public static List<Cell> run(FlinkEngine engine, Config cfg, Steps steps) {
        for (String mergeEngine : cfg.engines()) {
            for (String producer : cfg.producers()) {
                String table = tableName(mergeEngine, producer);
                if (PaimonLake.tableExists(cfg.warehouse(), PaimonTables.DEFAULT_DATABASE, table)) {
                    throw new IllegalArgumentException("table " + PaimonTables.DEFAULT_DATABASE + "." + table
                            + " already exists in the warehouse " + cfg.warehouse() + "; tierproof never writes to a"
                            + " table it did not create: choose another --warehouse");
                }
            }
        }
        boolean databaseExisted = PaimonLake.databaseExists(cfg.warehouse(), PaimonTables.DEFAULT_DATABASE);
        TableEnvironment batch = engine.batchTables();
        PaimonTables.register(batch, cfg.warehouse());
        TableEnvironment streaming = engine.streamingTables();
        PaimonTables.register(streaming, cfg.warehouse());
        if (!databaseExisted) {
            steps.undo().created("database " + PaimonTables.DEFAULT_DATABASE + " in the warehouse " + cfg.warehouse(),
                    () -> PaimonLake.dropDatabaseIfEmpty(cfg.warehouse(), PaimonTables.DEFAULT_DATABASE));
        }
        int sentinelId = Queries.unusedId(cfg.upserts());
        List<Cell> cells = new ArrayList<>();
        int done = 0;
        int total = cfg.engines().size() * cfg.producers().size();
        for (String mergeEngine : cfg.engines()) {
            for (String producer : cfg.producers()) {
                steps.progress().step(String.format("[%d/%d] %s + %s", ++done, total, mergeEngine, producer));
                cells.addAll(runTable(steps, batch, streaming, cfg, mergeEngine, producer, sentinelId));
            }
        }
        return cells;
    }

    /** The DDL of one configuration; aggregation sums {@code bal}. */
    static String ddl(String table, String mergeEngine, String producer) {
        if (mergeEngine.equals(APPEND_ONLY)) {
            return Ddl.appendOnlyTableDdl(table, Map.of("changelog-producer", producer));
        }
        Map<String, String> options = new LinkedHashMap<>();
        if (mergeEngine.equals("aggregation")) {
            options.put("fields.bal.aggregate-function", "sum");
        }
        if (producer.equals("full-compaction")) {
            options.put("full-compaction.delta-commits", "1"); // a changelog at every commit
        }
        return Ddl.keyedTableDdl(table, mergeEngine, producer, 1, options);
    }

    static String tableName(String mergeEngine, String producer) {
        return ("m_" + mergeEngine + "_" + producer).replace('-', '_');
    }

    private static List<Cell> runTable(Steps steps, TableEnvironment batch, TableEnvironment streaming, Config cfg,
            String mergeEngine, String producer, int sentinelId) {
        String table = tableName(mergeEngine, producer);
        String db = PaimonTables.DEFAULT_DATABASE;
        // Recorded before the statement runs (none of the matrix's tables existed at the start).
        steps.undo().created("table " + db + "." + table + " in the warehouse " + cfg.warehouse(),
                () -> PaimonLake.dropTable(cfg.warehouse(), db, table));
        try {
            Statements.execute(steps, batch, "CREATE TABLE " + table, ddl(table, mergeEngine, producer),
                    cfg.deadline());
        } catch (DeadlineExceeded e) {
            throw e;
        } catch (RuntimeException e) {
            return refusedAll(mergeEngine, producer, "at CREATE: " + rootCause(e));
        }
        long lastWorkloadSnapshot;
        try {
            List<String> inserts = Upserts.batchedUpsertInserts(table, cfg.upserts(), cfg.rowsPerInsert());
            for (int i = 0; i < inserts.size(); i++) {
                Statements.execute(steps, batch, table + ": INSERT " + (i + 1) + " of " + inserts.size(),
                        inserts.get(i), cfg.deadline());
            }
            lastWorkloadSnapshot = PaimonLake.latestSnapshotId(cfg.warehouse(), db, table).orElse(-1);
            Statements.execute(steps, batch, table + ": the sentinel commit",
                    Queries.sentinelInsert(table, sentinelId, 1_000), cfg.deadline());
        } catch (DeadlineExceeded e) {
            throw e;
        } catch (RuntimeException e) {
            return refusedAll(mergeEngine, producer, "at write: " + rootCause(e));
        }

        Map<String, Changelog> reads = new LinkedHashMap<>();
        Map<String, String> refusals = new LinkedHashMap<>();
        Map<String, Long> millis = new LinkedHashMap<>();
        OptionalInt exclude = OptionalInt.of(sentinelId);
        read(reads, refusals, millis, "batch", () -> BoundedRead.collect(steps, batch,
                Queries.selectRows(table, Map.of(), exclude), "batch", cfg.deadline()));
        read(reads, refusals, millis, "streaming-replay", () -> BoundedRead.collect(steps, streaming,
                Queries.selectRows(table, Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1",
                        "scan.bounded.watermark", "0", "continuous.discovery-interval", "100ms"), exclude),
                "streaming-replay", cfg.deadline()));
        // latest-full starts with the merged snapshot, then waits for changes that never come:
        // bounded by the batch read's row count (after the writes nothing else changes).
        Changelog batchRead = reads.get("batch");
        if (batchRead != null) {
            long count = batchRead.size();
            read(reads, refusals, millis, "streaming-latest-full", () -> BoundedRead.collect(steps, streaming,
                    Queries.selectRows(table, Map.of("scan.mode", "latest-full",
                            "continuous.discovery-interval", "100ms"), exclude),
                    "streaming-latest-full", cfg.deadline(), count));
        } else {
            refusals.put("streaming-latest-full", "not run: the batch read was refused");
        }
        // The sentinel leaves the table: it keeps exactly the workload's commits.
        steps.execute(table + ": rolling back the sentinel commit", cfg.deadline(),
                control -> PaimonLake.rollBackTo(cfg.warehouse(), db, table, lastWorkloadSnapshot));
        boolean keyed = !mergeEngine.equals(APPEND_ONLY);
        Verdict verdict = reads.isEmpty() ? null : Oracle.judge(cfg.upserts(),
                keyed ? mergeEngine : null, keyed, new ArrayList<>(reads.values()));
        List<Cell> cells = new ArrayList<>();
        for (String read : READS) {
            if (refusals.containsKey(read)) {
                cells.add(Cell.refused(mergeEngine, producer, read, refusals.get(read)));
            } else {
                cells.add(cell(verdict, mergeEngine, producer, read, millis.get(read)));
            }
        }
        return cells;
    }

    private static Cell cell(Verdict verdict, String mergeEngine, String producer, String read, long millis) {
        Check vsExpected = check(verdict, Verdict.EXPECTED, read);
        Check vsBatch = read.equals("batch") ? null : check(verdict, "batch", read);
        ReadResult folded = verdict.read(read).orElse(null);
        boolean anomalies = folded != null && !folded.anomalies().isEmpty();
        boolean equalsBatch = vsBatch == null || vsBatch.equal();
        boolean consistent = vsExpected.equal() && equalsBatch && !anomalies;
        String reason = consistent ? "" : reasonText(vsExpected, vsBatch, folded);
        return new Cell(mergeEngine, producer, read, consistent ? Cell.CONSISTENT : Cell.INCONSISTENT, reason,
                vsExpected.missingCount(), vsExpected.extraCount(), equalsBatch,
                folded == null ? 0 : folded.changes(), folded == null ? 0 : folded.rows().size(),
                consistent ? "" : sample(vsExpected.diff()), millis);
    }

    private static String reasonText(Check vsExpected, Check vsBatch, ReadResult folded) {
        List<String> parts = new ArrayList<>();
        if (!vsExpected.equal()) {
            parts.add("differs from the engine's expected state (missing " + vsExpected.missingCount() + ", extra "
                    + vsExpected.extraCount() + ")");
        }
        if (vsBatch != null && !vsBatch.equal()) {
            parts.add("differs from the batch read");
        }
        if (folded != null && !folded.anomalies().isEmpty()) {
            Anomaly first = folded.anomalies().get(0);
            parts.add(folded.anomalies().size() + " anomalies, first: " + first.change() + " " + first.reason());
        }
        return String.join("; ", parts);
    }

    private static String sample(Diff diff) {
        StringBuilder sb = new StringBuilder();
        appendRows(sb, "missing", diff.missing());
        appendRows(sb, "extra", diff.extra());
        return sb.toString().trim();
    }

    private static void appendRows(StringBuilder sb, String label, List<Counted> counted) {
        if (counted.isEmpty()) {
            return;
        }
        sb.append(label).append(':');
        int n = 0;
        for (Counted c : counted) {
            if (n++ == 4) {
                sb.append(" ...");
                break;
            }
            sb.append(' ').append(c.row());
            if (c.count() > 1) {
                sb.append('x').append(c.count());
            }
        }
        sb.append(' ');
    }

    private static Check check(Verdict verdict, String left, String right) {
        return verdict.check(left, right)
                .orElseThrow(() -> new IllegalStateException("no check of " + right + " against " + left));
    }

    interface Read {
        Changelog run();
    }

    private static void read(Map<String, Changelog> reads, Map<String, String> refusals, Map<String, Long> millis,
            String name, Read read) {
        long t = System.nanoTime();
        try {
            reads.put(name, read.run());
        } catch (DeadlineExceeded e) {
            throw e;
        } catch (RuntimeException e) {
            refusals.put(name, "at read: " + rootCause(e));
        }
        millis.put(name, Statements.millisSince(t));
    }

    private static List<Cell> refusedAll(String mergeEngine, String producer, String reason) {
        return READS.stream().map(r -> Cell.refused(mergeEngine, producer, r, reason)).toList();
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
