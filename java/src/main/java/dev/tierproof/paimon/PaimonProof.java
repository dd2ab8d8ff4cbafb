package dev.tierproof.paimon;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.Changelog;
import dev.tierproof.core.Oracle;
import dev.tierproof.core.Queries;
import dev.tierproof.core.Rows;
import dev.tierproof.core.Upserts;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * The core proof on real Flink SQL and Paimon: create the table, write the upserts in order, then
 * read it in batch and as a bounded streaming replay of its changelog from the first snapshot, and
 * let the Rust oracle judge both against the last value per id.
 *
 * <p>The streaming read is bounded by Paimon itself: a last sentinel commit carries the watermark
 * {@link #SENTINEL_WATERMARK}, and the read stops before the first snapshot whose watermark
 * exceeds {@link #BOUND_WATERMARK}. The sentinel row's id is one the workload does not use, and
 * every read leaves it out. After the reads the table is rolled back to the snapshot before the
 * sentinel, so the table left behind holds exactly the workload's commits. A third read, Paimon's
 * own Java stream scan bounded by snapshot ids, cross-checks the streaming read without Flink.
 */
public final class PaimonProof {
    static final long BOUND_WATERMARK = 0;
    public static final long SENTINEL_WATERMARK = 1_000;
    /** The most upserts one {@code INSERT … VALUES} may hold: planning 10 000 literal rows took 25 s here. */
    public static final int MAX_ROWS_PER_INSERT = 10_000;

    /**
     * What to prove.
     *
     * @param table {@code --table}: a table or db.table name in the Paimon catalog, or null (the
     *     DDL's own name, or {@code accounts})
     * @param upserts the ordered upserts
     * @param ddl the user's CREATE TABLE, or null for the generated tiered table
     * @param warehouse the Paimon warehouse directory
     * @param deadline the longest any single statement or read may take
     * @param rowsPerInsert 1 for one INSERT per upsert (the contract), more for the fast path
     */
    public record Config(
            String table, Rows upserts, String ddl, Path warehouse, Duration deadline, int rowsPerInsert) {
        public Config {
            checkRowsPerInsert(rowsPerInsert);
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

    public static ProofReport run(FlinkEngine engine, Config cfg, Steps steps) {
        Map<String, Long> timings = new LinkedHashMap<>();
        long startAll = System.nanoTime();
        TableEnvironment batch = engine.batchTables();
        PaimonTables.register(batch, cfg.warehouse());

        long t = System.nanoTime();
        TableCreation.Created created = TableCreation.create(steps, batch, cfg.warehouse(), cfg.table(), cfg.ddl(),
                cfg.upserts(), cfg.deadline());
        ObjectPath path = created.path();
        String db = path.getDatabaseName();
        String table = Queries.quotedPath(db, path.getObjectName());
        timings.put("create", Statements.millisSince(t));

        t = System.nanoTime();
        List<String> statements = cfg.rowsPerInsert() <= 1
                ? Upserts.upsertInserts(table, cfg.upserts())
                : Upserts.batchedUpsertInserts(table, cfg.upserts(), cfg.rowsPerInsert());
        steps.progress().step("writing " + cfg.upserts().size() + " upserts in " + statements.size()
                + " INSERT statements");
        for (int i = 0; i < statements.size(); i++) {
            Statements.execute(steps, batch, "INSERT " + (i + 1) + " of " + statements.size(), statements.get(i),
                    cfg.deadline());
            steps.progress().count("INSERT statements done", i + 1, statements.size());
        }
        long lastWorkloadSnapshot = PaimonLake.latestSnapshotId(cfg.warehouse(), db, path.getObjectName())
                .orElseThrow(() -> new dev.tierproof.core.TierproofException(
                        "the workload's INSERTs left " + path.getFullName() + " without a snapshot"));
        int sentinelId = Queries.unusedId(cfg.upserts());
        Statements.execute(steps, batch, "the sentinel commit", Queries.sentinelInsert(table, sentinelId,
                SENTINEL_WATERMARK), cfg.deadline());
        timings.put("write", Statements.millisSince(t));

        t = System.nanoTime();
        String batchQuery = Queries.selectRows(table, Map.of(), OptionalInt.of(sentinelId));
        steps.progress().step("batch read: " + batchQuery);
        Changelog batchRead = BoundedRead.collect(steps, batch, batchQuery, "batch", cfg.deadline());
        timings.put("batch_read", Statements.millisSince(t));

        t = System.nanoTime();
        TableEnvironment streaming = engine.streamingTables();
        PaimonTables.register(streaming, cfg.warehouse());
        String streamingQuery = Queries.selectRows(table, replayOptions(), OptionalInt.of(sentinelId));
        steps.progress().step("streaming read: " + streamingQuery);
        Changelog streamingRead = BoundedRead.collect(steps, streaming, streamingQuery, "streaming", cfg.deadline());
        timings.put("streaming_read", Statements.millisSince(t));

        t = System.nanoTime();
        steps.progress().step("paimon replay: Paimon's own stream scan from snapshot 1 (no Flink)");
        Changelog replayRead = PaimonStreamReplay.replay(steps, cfg.warehouse(), db, path.getObjectName(),
                "paimon_replay", OptionalInt.of(sentinelId), cfg.deadline());
        timings.put("paimon_replay", Statements.millisSince(t));

        t = System.nanoTime();
        steps.progress().step("rolling " + path.getFullName() + " back to snapshot " + lastWorkloadSnapshot
                + ": the sentinel commit leaves the table");
        steps.execute("rolling back the sentinel commit", cfg.deadline(), control ->
                PaimonLake.rollBackTo(cfg.warehouse(), db, path.getObjectName(), lastWorkloadSnapshot));
        timings.put("rollback", Statements.millisSince(t));

        t = System.nanoTime();
        Verdict verdict = Oracle.judge(cfg.upserts(), created.keyed(), List.of(batchRead, streamingRead, replayRead));
        timings.put("judge", Statements.millisSince(t));
        timings.put("total", Statements.millisSince(startAll));

        ObjectNode report = created.report("prove", cfg.warehouse());
        ((ObjectNode) report.get("paimon")).put("latest_snapshot", lastWorkloadSnapshot);
        report.put("upserts", cfg.upserts().size());
        report.put("statements", statements.size());
        report.put("rows_per_insert", Math.max(1, cfg.rowsPerInsert()));
        report.set("expected_rows", Verdict.JSON.valueToTree(verdict.expectedRows()));
        report.set("batch_rows", Verdict.JSON.valueToTree(verdict.rowsOf("batch")));
        report.set("streaming_rows", Verdict.JSON.valueToTree(verdict.rowsOf("streaming")));
        report.put("consistent", verdict.consistent());
        report.set("diff", ProofReport.firstDiff(verdict));
        ObjectNode queries = report.putObject("queries");
        queries.put("batch", batchQuery);
        queries.put("streaming", streamingQuery);
        queries.put("paimon_replay", "Paimon StreamTableScan from snapshot 1 to the latest snapshot");
        ObjectNode sentinel = report.putObject("sentinel");
        sentinel.put("id", sentinelId);
        sentinel.put("watermark", SENTINEL_WATERMARK);
        sentinel.put("snapshot", lastWorkloadSnapshot + 1);
        sentinel.put("rolled_back_to", lastWorkloadSnapshot);
        sentinel.put("note", "a last commit that bounds the streaming read (Paimon ends the read before it); every"
                + " read leaves it out, and the table is rolled back to the snapshot before it, so it keeps"
                + " exactly the workload's commits");
        return new ProofReport(report, verdict, created.ddl(), Map.of(), List.of(), timings);
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
}
