package dev.tierproof.paimon;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.Changelog;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.Oracle;
import dev.tierproof.core.Queries;
import dev.tierproof.core.Rows;
import dev.tierproof.core.Upserts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
 * both reads leave it out. A third read, Paimon's own Java stream scan bounded by snapshot ids,
 * cross-checks the streaming read without Flink.
 */
public final class PaimonProof {
    static final long BOUND_WATERMARK = 0;
    static final long SENTINEL_WATERMARK = 1_000;

    /**
     * What to prove.
     *
     * @param table a table or db.table name in the Paimon catalog
     * @param upserts the ordered upserts
     * @param ddl the CREATE TABLE to run, or null for the generated tiered table
     * @param warehouse the Paimon warehouse directory
     * @param deadline the longest any single statement or read may take
     * @param rowsPerInsert 1 for one INSERT per upsert (the contract), more for the fast path
     */
    public record Config(
            String table, Rows upserts, String ddl, Path warehouse, Duration deadline, int rowsPerInsert) {}

    private PaimonProof() {}

    public static ProofReport run(FlinkEngine engine, Config cfg, Progress progress) {
        Map<String, Long> timings = new LinkedHashMap<>();
        long startAll = System.nanoTime();
        ObjectPath path = PaimonTables.objectPath(cfg.table());
        String ddl = cfg.ddl() != null ? cfg.ddl() : Ddl.tierTableDdl(cfg.table());

        TableEnvironment batch = engine.batchTables();
        PaimonTables.register(batch, cfg.warehouse());
        PaimonTables.createDatabaseIfMissing(batch, path.getDatabaseName());
        batch.useDatabase(path.getDatabaseName());

        long t = System.nanoTime();
        progress.step("creating " + path.getFullName() + " in " + cfg.warehouse());
        ObjectPath created = createTable(batch, path, ddl, cfg.ddl() != null);
        boolean keyed = PaimonTables.checkShapeAndKey(batch, created);
        String table = created.getObjectName().equals(path.getObjectName()) ? cfg.table() : created.getObjectName();
        timings.put("create", Statements.millisSince(t));

        t = System.nanoTime();
        List<String> statements = cfg.rowsPerInsert() <= 1
                ? Upserts.upsertInserts(table, cfg.upserts())
                : Upserts.batchedUpsertInserts(table, cfg.upserts(), cfg.rowsPerInsert());
        progress.step("writing " + cfg.upserts().size() + " upserts in " + statements.size() + " INSERT statements");
        for (int i = 0; i < statements.size(); i++) {
            Statements.execute(batch, statements.get(i), cfg.deadline());
            progress.count("INSERT statements done", i + 1, statements.size());
        }
        int sentinelId = Queries.unusedId(cfg.upserts());
        Statements.execute(batch, Queries.sentinelInsert(table, sentinelId, SENTINEL_WATERMARK), cfg.deadline());
        timings.put("write", Statements.millisSince(t));

        t = System.nanoTime();
        String batchQuery = Queries.selectRows(table, Map.of(), OptionalInt.of(sentinelId));
        progress.step("batch read: " + batchQuery);
        Changelog batchRead = BoundedRead.collect(batch, batchQuery, "batch", cfg.deadline(), progress);
        timings.put("batch_read", Statements.millisSince(t));

        t = System.nanoTime();
        TableEnvironment streaming = engine.streamingTables();
        PaimonTables.register(streaming, cfg.warehouse());
        streaming.useDatabase(path.getDatabaseName());
        String streamingQuery = Queries.selectRows(table, replayOptions(), OptionalInt.of(sentinelId));
        progress.step("streaming read: " + streamingQuery);
        Changelog streamingRead = BoundedRead.collect(streaming, streamingQuery, "streaming", cfg.deadline(), progress);
        timings.put("streaming_read", Statements.millisSince(t));

        t = System.nanoTime();
        progress.step("paimon replay: Paimon's own stream scan from snapshot 1 (no Flink)");
        Changelog replayRead = PaimonStreamReplay.replay(cfg.warehouse(), created.getDatabaseName(),
                created.getObjectName(), "paimon_replay", OptionalInt.of(sentinelId), cfg.deadline());
        timings.put("paimon_replay", Statements.millisSince(t));

        t = System.nanoTime();
        ObjectNode verdict = ProofReport.parseVerdict(
                Oracle.judge(cfg.upserts(), keyed, List.of(batchRead, streamingRead, replayRead)));
        timings.put("judge", Statements.millisSince(t));
        timings.put("total", Statements.millisSince(startAll));

        ObjectNode report = ProofReport.JSON.createObjectNode();
        report.put("command", "prove");
        report.put("table", created.getFullName());
        ObjectNode paimon = report.putObject("paimon");
        paimon.put("warehouse", cfg.warehouse().toAbsolutePath().toString());
        paimon.put("database", created.getDatabaseName());
        paimon.put("table", created.getObjectName());
        report.put("ddl", ddl);
        report.put("keyed", keyed);
        report.put("upserts", cfg.upserts().size());
        report.put("statements", statements.size());
        report.put("rows_per_insert", Math.max(1, cfg.rowsPerInsert()));
        report.set("expected_rows", verdict.get("expected_rows"));
        report.set("batch_rows", ProofReport.readRows(verdict, "batch"));
        report.set("streaming_rows", ProofReport.readRows(verdict, "streaming"));
        report.put("consistent", verdict.path("consistent").asBoolean());
        report.set("diff", ProofReport.firstDiff(verdict));
        ObjectNode queries = report.putObject("queries");
        queries.put("batch", batchQuery);
        queries.put("streaming", streamingQuery);
        queries.put("paimon_replay", "Paimon StreamTableScan from snapshot 1 to the latest snapshot");
        ObjectNode sentinel = report.putObject("sentinel");
        sentinel.put("id", sentinelId);
        sentinel.put("watermark", SENTINEL_WATERMARK);
        sentinel.put("note", "a last commit that bounds the streaming read; left out of both reads");
        report.set("verdict", verdict);
        ProofReport.putTimingsAndVersions(report, timings);
        return new ProofReport(report);
    }

    /** Streaming read options: replay the changelog from snapshot 1, end at the sentinel. */
    static Map<String, String> replayOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("scan.mode", "from-snapshot");
        o.put("scan.snapshot-id", "1");
        o.put("scan.bounded.watermark", String.valueOf(BOUND_WATERMARK));
        o.put("continuous.discovery-interval", "100ms");
        return o;
    }

    private static ObjectPath createTable(TableEnvironment batch, ObjectPath path, String ddl, boolean userDdl) {
        String db = path.getDatabaseName();
        List<String> before = PaimonTables.listTables(batch, db);
        if (!userDdl && before.contains(path.getObjectName())) {
            throw new IllegalArgumentException(
                    "table " + path.getFullName() + " already exists in the warehouse; choose another --table"
                            + " or another --warehouse (tierproof never overwrites a table)");
        }
        try {
            batch.executeSql(ddl);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("the DDL failed: " + BoundedRead.rootMessage(e), e);
        }
        List<String> added = new ArrayList<>(PaimonTables.listTables(batch, db));
        added.removeAll(before);
        if (added.size() != 1) {
            throw new IllegalArgumentException(
                    "the DDL must create exactly one new table in database " + db + "; it created " + added);
        }
        return new ObjectPath(db, added.get(0));
    }

}
