package dev.tierproof.fluss;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.Changelog;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.Oracle;
import dev.tierproof.core.Queries;
import dev.tierproof.core.Rows;
import dev.tierproof.core.Upserts;
import dev.tierproof.core.verdict.Check;
import dev.tierproof.core.verdict.ReadResult;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonStreamReplay;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Progress;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.CatalogDescriptor;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.metadata.TablePath;

/**
 * The streamhouse proof: a real Fluss cluster tiers a primary-key table into Paimon; once tiering
 * has quiesced, every way of reading the data must hold the last value per id.
 *
 * <p>Reads, each bounded by its source's own bookkeeping and by a deadline:
 * <ul>
 *   <li>{@code paimon_batch}: Flink batch SQL on the tiered Paimon table;
 *   <li>{@code paimon_streaming}: Flink streaming SQL replaying the Paimon changelog from snapshot
 *       1, stopped after as many changes as the lake holds (its tiered log offset);
 *   <li>{@code paimon_replay}: Paimon's own stream scan, bounded by snapshot ids;
 *   <li>{@code fluss_changelog}: Flink streaming SQL on the Fluss table from the earliest offset,
 *       stopped at the log end offset;
 *   <li>{@code fluss_full}: Flink streaming SQL with {@code scan.startup.mode=full} (the lake
 *       snapshot, then the log tail), stopped after the lake's row count plus the log tail;
 *   <li>{@code fluss_union}: Flink batch SQL on the Fluss table, Fluss's union read of lake and log.
 * </ul>
 */
public final class StreamhouseProof {
    public static final String FLUSS_CATALOG = "tierproof_fluss";
    public static final String FLUSS_DATABASE = "fluss";
    static final String FRESHNESS = "1s";
    static final Duration TIERING_POLL = Duration.ofMillis(500);

    /**
     * @param table the Fluss table's name (in database {@value #FLUSS_DATABASE})
     * @param rowsPerInsert 1 for one INSERT per upsert; more for the fast path
     */
    public record Config(String table, Rows upserts, Path warehouse, Duration deadline, int rowsPerInsert) {}

    private StreamhouseProof() {}

    /** Runs the proof on a cluster and engine the caller owns (and stops). */
    /**
     * The Fluss DDL of {@code table}, checked (a plain name Fluss accepts) before anything starts.
     */
    public static String ddl(String table) {
        if (Queries.pathParts(table).length != 1) {
            throw new IllegalArgumentException("--table " + table + ": give a plain table name; it lives in "
                    + "Fluss database " + FLUSS_DATABASE + " and Paimon database " + FLUSS_DATABASE);
        }
        return Ddl.flussTierTableDdl(table, FRESHNESS);
    }

    public static ProofReport run(LocalFlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps) {
        Progress progress = steps.progress();
        Map<String, Long> timings = new LinkedHashMap<>();
        long startAll = System.nanoTime();
        String ddl = ddl(cfg.table());
        if (PaimonLake.tableExists(cfg.warehouse(), FLUSS_DATABASE, cfg.table())) {
            throw new IllegalArgumentException("table " + FLUSS_DATABASE + "." + cfg.table() + " already exists in the"
                    + " warehouse " + cfg.warehouse() + "; tierproof never writes to a table it did not create:"
                    + " choose another --table or --warehouse");
        }
        boolean lakeDatabaseExisted = PaimonLake.databaseExists(cfg.warehouse(), FLUSS_DATABASE);
        TableEnvironment flussBatch = flussTables(engine.batchTables(), cluster);

        long t = System.nanoTime();
        progress.step("creating Fluss table " + FLUSS_DATABASE + "." + cfg.table() + " (datalake enabled)");
        // Recorded before the statement runs: Fluss makes the lake table as part of it.
        if (!lakeDatabaseExisted) {
            steps.undo().created("database " + FLUSS_DATABASE + " in the warehouse " + cfg.warehouse(),
                    () -> PaimonLake.dropDatabaseIfEmpty(cfg.warehouse(), FLUSS_DATABASE));
        }
        steps.undo().created("lake table " + FLUSS_DATABASE + "." + cfg.table() + " in the warehouse "
                + cfg.warehouse(), () -> PaimonLake.dropTable(cfg.warehouse(), FLUSS_DATABASE, cfg.table()));
        Statements.execute(steps, flussBatch, "CREATE TABLE " + FLUSS_DATABASE + "." + cfg.table(), ddl,
                cfg.deadline());
        timings.put("create", Statements.millisSince(t));

        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Tiering tiering = Tiering.start(engine, cluster, cfg.warehouse(), TIERING_POLL)) {
            progress.step("tiering job started (polls every " + TIERING_POLL.toMillis() + " ms)");
            t = System.nanoTime();
            List<String> statements = cfg.rowsPerInsert() <= 1
                    ? Upserts.upsertInserts(cfg.table(), cfg.upserts())
                    : Upserts.batchedUpsertInserts(cfg.table(), cfg.upserts(), cfg.rowsPerInsert());
            progress.step("writing " + cfg.upserts().size() + " upserts to Fluss in " + statements.size()
                    + " INSERT statements (each a Flink job)");
            for (int i = 0; i < statements.size(); i++) {
                Statements.execute(steps, flussBatch, "INSERT " + (i + 1) + " of " + statements.size(),
                        statements.get(i), cfg.deadline());
                progress.count("INSERT statements done", i + 1, statements.size());
            }
            timings.put("write", Statements.millisSince(t));

            TablePath flussPath = TablePath.of(FLUSS_DATABASE, cfg.table());
            progress.step("waiting for tiering to quiesce (lake offset = log end offset)");
            Tiering.Quiesced q = steps.run("waiting for tiering to quiesce", cfg.deadline(),
                    control -> Tiering.awaitQuiesced(connection.getAdmin(), flussPath, cfg.deadline()));
            timings.put("tiering_wait", q.waitedMillis());
            progress.step("tiered: log end offset " + q.logEndOffset() + ", lake snapshot " + q.lakeSnapshotId()
                    + " (" + q.waitedMillis() + " ms)");

            List<Changelog> reads = new ArrayList<>();
            Map<String, String> bounds = new LinkedHashMap<>();
            TableEnvironment paimonBatch = engine.batchTables();
            PaimonTables.register(paimonBatch, cfg.warehouse());
            paimonBatch.useDatabase(FLUSS_DATABASE);
            Changelog paimonBatchRead = timed(timings, "paimon_batch", progress, () -> BoundedRead.collect(
                    steps, paimonBatch, Queries.selectRows(cfg.table(), Map.of(), OptionalInt.empty()), "paimon_batch",
                    cfg.deadline()));
            reads.add(paimonBatchRead);
            bounds.put("paimon_batch", "a batch query ends by itself");

            TableEnvironment paimonStreaming = engine.streamingTables();
            PaimonTables.register(paimonStreaming, cfg.warehouse());
            paimonStreaming.useDatabase(FLUSS_DATABASE);
            String replayQuery = Queries.selectRows(cfg.table(), Map.of("scan.mode", "from-snapshot",
                    "scan.snapshot-id", "1", "continuous.discovery-interval", "100ms"), OptionalInt.empty());
            reads.add(timed(timings, "paimon_streaming", progress, () -> BoundedRead.collect(steps,
                    paimonStreaming, replayQuery, "paimon_streaming", cfg.deadline(), q.logEndOffset())));
            bounds.put("paimon_streaming", "stopped after the lake's tiered log offset: " + q.logEndOffset()
                    + " changes");

            reads.add(timed(timings, "paimon_replay", progress, () -> PaimonStreamReplay.replay(steps, cfg.warehouse(),
                    FLUSS_DATABASE, cfg.table(), "paimon_replay", OptionalInt.empty(), cfg.deadline())));
            bounds.put("paimon_replay", "Paimon's stream scan up to the latest snapshot");

            TableEnvironment flussStreaming = flussTables(engine.streamingTables(), cluster);
            reads.add(timed(timings, "fluss_changelog", progress, () -> BoundedRead.collect(steps,
                    flussStreaming, Queries.selectRows(cfg.table(), Map.of("scan.startup.mode", "earliest"),
                    OptionalInt.empty()), "fluss_changelog", cfg.deadline(), q.logEndOffset())));
            bounds.put("fluss_changelog", "scan.startup.mode=earliest, stopped at the log end offset: "
                    + q.logEndOffset() + " changes");

            long fullCount = paimonBatchRead.size();
            reads.add(timed(timings, "fluss_full", progress, () -> BoundedRead.collect(steps,
                    flussStreaming, Queries.selectRows(cfg.table(), Map.of("scan.startup.mode", "full"),
                    OptionalInt.empty()), "fluss_full", cfg.deadline(), fullCount)));
            bounds.put("fluss_full", "scan.startup.mode=full (lake snapshot + empty log tail), stopped after the"
                    + " lake's " + fullCount + " rows");

            reads.add(timed(timings, "fluss_union", progress, () -> BoundedRead.collect(steps,
                    flussBatch, Queries.selectRows(cfg.table(), Map.of(), OptionalInt.empty()), "fluss_union",
                    cfg.deadline())));
            bounds.put("fluss_union", "a batch union read (lake snapshot + log) ends by itself");

            t = System.nanoTime();
            Verdict verdict = Oracle.judge(cfg.upserts(), true, reads);
            timings.put("judge", Statements.millisSince(t));
            timings.put("total", Statements.millisSince(startAll));
            List<String> columns = paimonColumns(paimonBatch, cfg.table());
            List<String> details = List.of(
                    String.format("tiered into      : Paimon %s.%s in %s, columns %s", FLUSS_DATABASE, cfg.table(),
                            cfg.warehouse().toAbsolutePath(), columns),
                    String.format("tiering          : log end offset %d, lake snapshot %d, caught up in %d ms",
                            q.logEndOffset(), q.lakeSnapshotId(), q.waitedMillis()));
            return new ProofReport(report(cfg, ddl, statements.size(), cluster, q, columns, verdict, bounds),
                    verdict, ddl, bounds, details, timings);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new dev.tierproof.core.TierproofException("the streamhouse proof failed: " + e.getMessage(), e);
        }
    }

    interface Read {
        Changelog run();
    }

    private static Changelog timed(Map<String, Long> timings, String name, Progress progress, Read read) {
        progress.step("read " + name);
        long t = System.nanoTime();
        Changelog c = read.run();
        timings.put(name, Statements.millisSince(t));
        return c;
    }

    /** A table environment with the Fluss catalog registered (by API) and in use. */
    static TableEnvironment flussTables(TableEnvironment tables, LocalFlussCluster cluster) {
        Configuration conf = new Configuration();
        conf.setString("type", "fluss");
        conf.setString("bootstrap.servers", cluster.bootstrapServers());
        tables.createCatalog(FLUSS_CATALOG, CatalogDescriptor.of(FLUSS_CATALOG, conf));
        tables.useCatalog(FLUSS_CATALOG);
        tables.useDatabase(FLUSS_DATABASE);
        return tables;
    }

    private static List<String> paimonColumns(TableEnvironment paimon, String table) {
        try {
            return PaimonTables.catalog(paimon).getTable(new ObjectPath(FLUSS_DATABASE, table))
                    .getUnresolvedSchema().getColumns().stream().map(Schema.UnresolvedColumn::getName).toList();
        } catch (Exception e) {
            return List.of("unknown: " + e.getMessage());
        }
    }

    private static ObjectNode report(Config cfg, String ddl, int statements, LocalFlussCluster cluster,
            Tiering.Quiesced q, List<String> paimonColumns, Verdict verdict, Map<String, String> bounds) {
        ObjectNode r = ProofReport.newObject();
        r.put("command", "streamhouse");
        r.put("status", "completed");
        r.put("table", FLUSS_DATABASE + "." + cfg.table());
        r.put("ddl", ddl);
        r.put("upserts", cfg.upserts().size());
        r.put("statements", statements);
        r.put("rows_per_insert", Math.max(1, cfg.rowsPerInsert()));
        ObjectNode fluss = r.putObject("fluss");
        fluss.put("bootstrap_servers", cluster.bootstrapServers());
        fluss.put("database", FLUSS_DATABASE);
        fluss.put("table", cfg.table());
        fluss.put("log_end_offset", q.logEndOffset());
        fluss.put("lake_snapshot_id", q.lakeSnapshotId());
        ObjectNode paimon = r.putObject("paimon");
        paimon.put("warehouse", cfg.warehouse().toAbsolutePath().toString());
        paimon.put("database", FLUSS_DATABASE);
        paimon.put("table", cfg.table());
        ArrayNode columns = paimon.putArray("columns");
        paimonColumns.forEach(columns::add);
        ArrayNode left = paimon.putArray("compared_columns");
        left.add("id").add("bal");
        paimon.put("note", "Fluss's system columns (__bucket, __offset, __timestamp) are left out of the comparison");
        r.put("tiering_wait_ms", q.waitedMillis());
        r.set("expected_rows", Verdict.JSON.valueToTree(verdict.expectedRows()));
        r.put("consistent", verdict.consistent());
        r.set("diff", ProofReport.firstDiff(verdict));
        ObjectNode reads = r.putObject("reads");
        for (ReadResult read : verdict.reads()) {
            ObjectNode o = reads.putObject(read.name());
            o.put("bound", bounds.get(read.name()));
            o.put("changes", read.changes());
            o.set("rows", Verdict.JSON.valueToTree(read.rows()));
            o.put("equals_expected", verdict.check(Verdict.EXPECTED, read.name()).map(Check::equal).orElse(false));
            o.set("anomalies", Verdict.JSON.valueToTree(read.anomalies()));
        }
        return r;
    }
}
