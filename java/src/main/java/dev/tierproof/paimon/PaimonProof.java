package dev.tierproof.paimon;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.TablePaths;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.OrderedWrite;
import dev.tierproof.flink.Statements;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Reading;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * The proof of a Paimon table of any shape (issue 8): the user's DDL and a workload of upserts
 * and deletes, held by the Rust core. Create the table, run the workload's statements in order,
 * bound the streaming replay with a sentinel commit (a row no operation writes, left out by the
 * oracle, rolled back after the reads), read in batch, as a Flink replay from snapshot 1 and with
 * Paimon's own stream scan (no Flink) — the replays only where Paimon promises merged changes —
 * streaming each read into the core, which judges: the batch read as a set (each key once), the
 * replays as upsert streams, all against what the table's merge engine makes of the workload.
 */
public final class PaimonProof {
    /** The streaming replays end before the first snapshot whose watermark exceeds this. */
    static final long BOUND_WATERMARK = 0;
    /** The sentinel commit's watermark: past the bound, so the replays end before it. */
    public static final long SENTINEL_WATERMARK = 1_000;
    /** The most upserts one {@code INSERT … VALUES} may hold: planning 10 000 literal rows took 25 s here. */
    public static final int MAX_ROWS_PER_INSERT = 10_000;

    /**
     * @param table {@code --table} or null (the DDL's own name)
     * @param workload the workload (from a CSV, or generated); the caller closes it
     */
    /** How the workload is written. */
    public enum Writer {
        /** {@code INSERT … VALUES} (and {@code DELETE}) statements, each a Flink job and a commit. */
        STATEMENTS,
        /** One Flink job yielding every operation in order ({@link OrderedWrite}): one commit. */
        JOB
    }

    /** @param rowsPerInsert for {@link Writer#STATEMENTS}: upserts per statement */
    public record Config(String table, Workload workload, Path warehouse, Duration deadline,
            int rowsPerInsert, Writer writer) {
        /** Written by statements. */
        public Config(String table, Workload workload, Path warehouse, Duration deadline, int rowsPerInsert) {
            this(table, workload, warehouse, deadline, rowsPerInsert, Writer.STATEMENTS);
        }
    }

    private PaimonProof() {}

    /** Refuses a batch size the planner cannot handle within a deadline. */
    public static void checkRowsPerInsert(int rowsPerInsert) {
        if (rowsPerInsert < 1 || rowsPerInsert > MAX_ROWS_PER_INSERT) {
            throw new IllegalArgumentException("--rows-per-insert " + rowsPerInsert + " must be between 1 and "
                    + MAX_ROWS_PER_INSERT + ": one INSERT of 10 000 rows already takes Flink about 25 s to plan on"
                    + " two cores, and planning grows faster than the rows");
        }
    }

    /** Streaming read options: replay the changelog from snapshot 1, end at the sentinel. */
    public static Map<String, String> replayOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("scan.mode", "from-snapshot");
        o.put("scan.snapshot-id", "1");
        o.put("scan.bounded.watermark", String.valueOf(BOUND_WATERMARK));
        o.put("continuous.discovery-interval", "100ms");
        return o;
    }

    public static ProofReport run(FlinkEngine engine, Config cfg, Steps steps) {
        Map<String, Long> timings = new LinkedHashMap<>();
        long startAll = System.nanoTime();
        Workload workload = cfg.workload();
        if (cfg.writer() == Writer.JOB && workload.orderedWriteRefused() != null) {
            throw new IllegalArgumentException("the ordered write: " + workload.orderedWriteRefused());
        }
        TableEnvironment batch = engine.batchTables();
        batch.getConfig().setLocalTimeZone(ZoneOffset.UTC); // TIMESTAMP_LTZ literals are UTC
        PaimonTables.register(batch, cfg.warehouse());
        long t = System.nanoTime();
        TableCreation.Created created = TableCreation.createGeneral(steps, batch, cfg.warehouse(), cfg.table(),
                workload.table(), cfg.deadline());
        ObjectPath path = created.path();
        timings.put("create", Statements.millisSince(t));

        t = System.nanoTime();
        List<Workload.Statement> statements = cfg.writer() == Writer.JOB ? List.of()
                : workload.statements(cfg.rowsPerInsert());
        if (cfg.writer() == Writer.JOB) {
            steps.progress().step("running the workload: " + workload.operations() + " operations in one ordered job");
            try (Workload written = workload.asWritten()) {
                OrderedWrite.run(steps, engine, tables -> PaimonTables.register(tables, cfg.warehouse()),
                        TablePaths.quotedPath(PaimonTables.CATALOG, path.getDatabaseName(), path.getObjectName()),
                        written, cfg.deadline());
            }
        } else {
            steps.progress().step("running the workload: " + statements.size() + " statements");
        }
        for (int i = 0; i < statements.size(); i++) {
            Workload.Statement s = statements.get(i);
            Statements.execute(steps, batch, s.label(), s.sql(), cfg.deadline());
            steps.progress().count("statements done", i + 1, statements.size());
        }
        OptionalLong last = PaimonLake.latestSnapshotId(cfg.warehouse(), path.getDatabaseName(),
                path.getObjectName());
        // A replay is judged only where Paimon promises merged changes (see the Rust Merge).
        String replayNotPromised = workload.replayNotPromised();
        boolean replays = last.isPresent() && replayNotPromised == null;
        if (replays) {
            Statements.execute(steps, batch, "the sentinel commit", workload.sentinelInsert(
                    SENTINEL_WATERMARK), cfg.deadline());
        }
        timings.put("write", Statements.millisSince(t));

        String streamingQuery = null;
        Verdict verdict;
        try (Workload.Reads reads = workload.reads()) {
            // The reads run side by side; each read's time is its own, so they overlap.
            Reading reading = new Reading(steps, reads, BoundedRead.GRACE, timings, new LinkedHashMap<>(),
                    new ArrayList<>(), new ArrayList<>());
            String batchQuery = workload.selectAll(Map.of());
            List<Reading.Planned> planned = new ArrayList<>();
            planned.add(reading.plan("batch", Workload.Source.SNAPSHOT, () -> Reading.Bound.endsByItself(
                    batchQuery),
                    (lane, sink) -> BoundedRead.collect(lane, batch, batchQuery, sink, cfg.deadline())));
            if (replays) {
                TableEnvironment streaming = engine.streamingTables();
                streaming.getConfig().setLocalTimeZone(ZoneOffset.UTC);
                PaimonTables.register(streaming, cfg.warehouse());
                streaming.useDatabase(path.getDatabaseName());
                streamingQuery = workload.selectAll(replayOptions());
                String replay = streamingQuery;
                planned.add(reading.plan("streaming", Workload.Source.REPLAY, () -> Reading.Bound.endsByItself(
                        replay),
                        (lane, sink) -> BoundedRead.collect(lane, streaming, replay, sink, cfg.deadline())));
                planned.add(reading.plan("paimon_replay", Workload.Source.REPLAY, () -> Reading.Bound.endsByItself(
                        "Paimon's own stream scan from snapshot 1 (no Flink)"),
                        (lane, sink) -> PaimonStreamReplay.replay(lane, LakeLocation.local(cfg.warehouse()), path.getDatabaseName(),
                                path.getObjectName(), sink, workload.columns(), cfg.deadline())));
            }
            t = System.nanoTime();
            reading.together(planned);
            timings.put("reads", Statements.millisSince(t));
            if (replays) {
                long to = last.getAsLong();
                steps.execute("rolling back the sentinel commit", cfg.deadline(), control ->
                        PaimonLake.rollBackTo(cfg.warehouse(), path.getDatabaseName(), path.getObjectName(), to));
            }
            // A read of the core proof that fails fails the proof, as it always has.
            reading.firstError().ifPresent(e -> {
                throw e;
            });

            t = System.nanoTime();
            verdict = reads.judge();
            timings.put("judge", Statements.millisSince(t));
            timings.put("fold", verdict.foldMillis());
        }
        timings.put("total", Statements.millisSince(startAll));

        ObjectNode report = created.report("prove", cfg.warehouse());
        report.put("operations", workload.operations());
        report.put("writer", cfg.writer().name().toLowerCase(java.util.Locale.ROOT));
        if (cfg.writer() == Writer.STATEMENTS) {
            report.put("statements", statements.size());
            report.put("rows_per_insert", cfg.rowsPerInsert());
        }
        report.put("consistent", verdict.consistent());
        ObjectNode queries = report.putObject("queries");
        queries.put("batch", workload.selectAll(Map.of()));
        if (streamingQuery != null) {
            queries.put("streaming", streamingQuery);
            ObjectNode sentinel = report.putObject("sentinel");
            sentinel.put("snapshot", last.getAsLong() + 1);
            sentinel.put("rolled_back_to", last.getAsLong());
            sentinel.put("note", "a row no operation writes, in a last commit that bounds the streaming read;"
                    + " the oracle leaves it out and the table is rolled back to the snapshot before it");
        } else {
            queries.put("streaming", "not run: " + (replayNotPromised != null ? replayNotPromised
                    : "the workload made no commit to replay"));
        }
        List<String> details = replayNotPromised == null ? List.of()
                : List.of("streaming        : replays not judged: " + replayNotPromised);
        return new ProofReport(report, verdict, created.ddl(), details, timings);
    }
}
