package dev.tierproof.audit;

import dev.tierproof.fluss.Clients;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.LogToCut;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonSnapshotRead;
import dev.tierproof.report.ProofReport;
import dev.tierproof.report.Report;
import dev.tierproof.run.Reading;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.ChangelogImage;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * A read-only check of a lake-enabled Fluss table tierproof did not create: its latest lake
 * snapshot is pinned with the log offsets it holds (the cut); then Fluss's log replayed up to the
 * cut through Fluss's own client (where the log still starts at offset 0), the lake table read at
 * exactly that snapshot through Paimon's own API, and the union read (lake + log tail) through
 * Flink are judged by the Rust core: each by its own source's rules (a snapshot holds each key
 * once; the log is a complete changelog), and every read against the first. The union read sees
 * the table as it is now: it is compared with the cut only when nothing was written since (the
 * log ends where the snapshot does, before and after the reads); otherwise it is checked on its
 * own (each key once) and the tier lag is reported. Nothing is written, in Fluss or in the lake.
 */
public final class TableAudit {
    /** The Flink catalog the union read goes through (registered in this JVM only). */
    static final String CATALOG = "tierproof_audit";
    private static final String DEFAULT_CATALOG = "default_catalog";
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

    private TableAudit() {}

    /**
     * @param path the audited table, in Fluss and (tiered) in the lake under the same names
     * @param warehouse the Paimon warehouse the cluster tiers into
     * @param deadline the longest any one read may take
     * @param spillDirectory where a table too large for memory has its reads' changes put, split
     *     by key, to be judged partition by partition; null: every read is folded in memory
     * @param partitionRows about how many rows of each read may be in memory at once: a log of
     *     more changes than this is judged in that many partitions (0: never)
     */
    public record Config(TablePath path, LakeLocation warehouse, Duration deadline, Path spillDirectory,
            long partitionRows) {
        /** Every read folded in memory. */
        public Config(TablePath path, LakeLocation warehouse, Duration deadline) {
            this(path, warehouse, deadline, null, 0);
        }

        /** The same audit, judged partition by partition when the log holds more than {@code rows} changes. */
        public Config spillingTo(Path directory, long rows) {
            return new Config(path, warehouse, deadline, directory, rows);
        }

        /**
         * How many partitions a log of {@code changes} changes is judged in: enough that each
         * holds about {@link #partitionRows} (a table has no more rows than its log has changes).
         */
        int partitions(long changes) {
            return spillDirectory == null || partitionRows <= 0 ? 1 : Workload.partitionsFor(changes, partitionRows);
        }
    }

    /** What the audit learned of the table before reading: its shape and where tiering stood. */
    private record Pinned(TableInfo info, String ddl, long snapshotId, Map<TableBucket, Long> cut,
            Map<TableBucket, Long> logEnds, Map<TableBucket, Long> logStarts) {
        long tiered() {
            return cut.values().stream().mapToLong(Long::longValue).sum();
        }

        long logEnd() {
            return logEnds.values().stream().mapToLong(Long::longValue).sum();
        }

        /** Whether the log ends where the snapshot does, in every bucket: nothing is left to tier. */
        boolean quiesced(Map<TableBucket, Long> ends) {
            return ends.entrySet().stream().allMatch(e -> e.getValue() <= cut.getOrDefault(e.getKey(), 0L));
        }

        /** Why the log cannot be replayed up to the cut, or null when it can. */
        String logNotReplayable() {
            if (info.getTableConfig().getChangelogImage() != ChangelogImage.FULL) {
                return "the table's changelog image is " + info.getTableConfig().getChangelogImage()
                        + " (no update-before), which the core's changelog rules do not model yet";
            }
            List<String> gone = new ArrayList<>();
            cut.forEach((b, end) -> {
                long start = logStarts.getOrDefault(b, 0L);
                if (end > 0 && start > 0) {
                    gone.add(b + " starts at offset " + start);
                }
            });
            return gone.isEmpty() ? null : "the log no longer holds the changes from offset 0 (" + String.join(", ",
                    gone.subList(0, Math.min(4, gone.size()))) + "): retention removed them";
        }
    }

    /**
     * Checks the table (exists, lake-enabled, a shape the core models) before anything is read:
     * bad input names what is wrong. Returns its {@code CREATE TABLE} as the core reads it.
     */
    public static String check(FlussCluster cluster, Config cfg) {
        try (Connection connection = Clients.open(cluster.clientConfig())) {
            TableInfo info = tableInfo(connection.getAdmin(), cfg.path(), cluster);
            String ddl = AuditedTable.ddl(info);
            Workload.checkTable(Workload.Target.FLUSS, ddl);
            // Paimon's catalog makes a warehouse directory it does not find: never for an audit.
            if (!PaimonLake.warehouseExists(cfg.warehouse()) || !PaimonLake.tableExists(cfg.warehouse(),
                    cfg.path().getDatabaseName(), cfg.path().getTableName())) {
                throw new IllegalArgumentException("--warehouse " + cfg.warehouse() + " holds no lake table "
                        + cfg.path() + ": is it the warehouse the cluster tiers into (datalake.paimon.warehouse)?");
            }
            return ddl;
        } catch (IllegalArgumentException | TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("could not read table " + cfg.path() + " of the Fluss cluster at "
                    + cluster.bootstrapServers() + ": " + Steps.rootMessage(e), e);
        }
    }

    public static ProofReport run(FlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps) {
        long startAll = System.nanoTime();
        Map<String, Long> timings = new LinkedHashMap<>();
        TablePath path = cfg.path();
        try (Connection connection = Clients.open(cluster.clientConfig())) {
            Admin admin = connection.getAdmin();
            steps.progress().step("pinning the latest lake snapshot of " + path + " and the log offsets it holds");
            Pinned pinned = steps.run("pinning the latest lake snapshot of " + path, ADMIN_TIMEOUT.multipliedBy(2),
                    control -> pin(admin, path, cluster));
            int partitions = cfg.partitions(pinned.logEnd());
            try (Workload table = Workload.ofTable(Workload.Target.FLUSS, pinned.ddl());
                    Workload.Reads reads = table.reads(cfg.spillDirectory(), partitions)) {
                List<String> failures = new ArrayList<>();
                Map<String, String> bounds = new LinkedHashMap<>();
                Reading reading = new Reading(steps, reads, BoundedRead.GRACE, timings, bounds, failures,
                        new ArrayList<>());
                List<Reading.Planned> planned = new ArrayList<>();
                String noLog = pinned.logNotReplayable();
                if (noLog == null) {
                    planned.add(reading.plan("fluss_log", Workload.Source.LOG, () -> new Reading.Bound(
                            "Fluss's log through its own client, from offset 0 up to lake snapshot "
                                    + pinned.snapshotId() + "'s offsets: " + pinned.tiered() + " changes", -1),
                            (lane, sink) -> LogToCut.read(lane, cluster, path, pinned.cut(), sink, cfg.deadline())));
                }
                Reading.Planned lake = reading.plan("lake_snapshot", Workload.Source.SNAPSHOT, () -> Reading.Bound.endsByItself(
                        "lake snapshot " + pinned.snapshotId() + " through Paimon's own API (no Flink)"),
                        (lane, sink) -> PaimonSnapshotRead.read(lane, cfg.warehouse(), path.getDatabaseName(),
                                path.getTableName(), pinned.snapshotId(), sink, table.columns(), cfg.deadline()));
                planned.add(lake);
                // Fluss's catalog opens a connection and asks for the database: a step, and closed below.
                List<TableEnvironment> opened = new ArrayList<>();
                TableEnvironment union = steps.run("opening the Fluss catalog for the union read", ADMIN_TIMEOUT,
                        control -> unionReads(engine.batchTables(), cluster, cfg.warehouse(), path.getDatabaseName()));
                opened.add(union);
                String all = table.selectAll(Map.of());
                Reading.Planned unionRead = reading.plan("fluss_union", Workload.Source.SNAPSHOT,
                        () -> Reading.Bound.endsByItself("the batch union read (lake snapshot + log tail), of the table"
                                + " as it is now"),
                        (lane, sink) -> BoundedRead.collect(lane, union, all, sink, cfg.deadline()));
                planned.add(unionRead);
                long t = System.nanoTime();
                Reading.Planned full = null;
                try {
                    TableEnvironment streaming = steps.run("opening the Fluss catalog for the full read",
                            ADMIN_TIMEOUT, control -> unionReads(engine.streamingTables(), cluster, cfg.warehouse(),
                                    path.getDatabaseName()));
                    opened.add(streaming);
                    // Fluss's streaming read of the table as a whole (lake snapshot + log tail): it does not end
                    // by itself, so it is stopped after the lake's row count (the log tail is empty at the cut).
                    // It follows the lake read, beside the others; written since the cut, it is left out below.
                    String fullSql = table.selectAll(Map.of("scan.startup.mode", "full"));
                    full = reading.plan("fluss_full", Workload.Source.SNAPSHOT, () -> new Reading.Bound(
                            "scan.startup.mode=full (lake snapshot + log tail), stopped after the lake snapshot's "
                                    + lake.buffer().size() + " rows", lake.buffer().size()),
                            (lane, sink) -> {
                                // Not read when written since the cut: a delete may keep it from its count.
                                if (atCut(admin, path, pinned)) {
                                    BoundedRead.collect(lane, streaming, fullSql, sink, cfg.deadline(),
                                            lake.buffer().size());
                                }
                            });
                    reading.together(planned, List.of(new Reading.Follower(full, lake, "not run: it is bounded by"
                            + " the lake snapshot's row count, and that read failed")));
                    planned.add(full);
                } finally {
                    for (TableEnvironment env : opened) {
                        try {
                            env.useCatalog(DEFAULT_CATALOG);
                            // Dropping it closes its connection: a watch audits again and again.
                            env.executeSql("DROP CATALOG IF EXISTS " + CATALOG);
                        } catch (RuntimeException e) {
                            // best effort, each on its own: the audit's outcome is decided by its reads
                        }
                    }
                }
                timings.put("reads", Statements.millisSince(t));
                Map<TableBucket, Long> endsAfter = steps.run("reading the log end offsets of " + path + " again",
                        ADMIN_TIMEOUT.multipliedBy(2), control -> Tiering.logOffsets(admin, path,
                                new OffsetSpec.LatestSpec(), ADMIN_TIMEOUT));
                // Offsets only grow: the log still ending at the cut after the reads means it did before.
                boolean still = pinned.quiesced(endsAfter);
                if (!still && full != null && lake.ok()) { // it ran (or skipped itself): its outcome is not the cut's
                    reading.forget(full, "left out: written since the cut, so the lake snapshot's row count does"
                            + " not bound it");
                }

                t = System.nanoTime();
                List<Workload.ReadBuffer> atCut = new ArrayList<>();
                for (Reading.Planned p : planned) {
                    // The union and full reads see the table as it is now: compared with the cut only if it is that.
                    if (p.ok() && (p != unionRead && p != full || still)) {
                        atCut.add(p.buffer());
                    }
                }
                Verdict verdict = table.judgeAgainstFirst(atCut, failures);
                List<ProofReport.Checkpoint> live = new ArrayList<>();
                if (!still && unionRead.ok()) {
                    Verdict alone = table.judgeAgainstFirst(List.of(unionRead.buffer()), List.of());
                    live.add(new ProofReport.Checkpoint(ProofReport.Checkpoint.Kind.LIVE_UNION,
                            "the union read of the table as it is now (written since the cut: checked on its own,"
                                    + " each key once)", alone, null));
                }
                timings.put("judge", Statements.millisSince(t));
                timings.put("fold", verdict.foldMillis());
                timings.put("total", Statements.millisSince(startAll));

                List<String> details = new ArrayList<>();
                details.add(String.format("lake snapshot    : %d holds %d of the log's %d changes (tier lag %d)%s",
                        pinned.snapshotId(), pinned.tiered(), pinned.logEnd(), pinned.logEnd() - pinned.tiered(),
                        still ? "" : "; written since: the union read is checked on its own, the full read (stopped"
                                + " by a count) not judged"));
                details.add(String.format("reference        : %s", verdict.reads().isEmpty() ? "none (no read ended)"
                        : verdict.reads().get(0).name() + " (every other read must hold what it holds)"));
                if (partitions > 1) {
                    details.add(String.format("judged           : partition by partition: %d partitions by key, about"
                            + " %,d rows of each read in memory at a time (their changes spilled to the run's"
                            + " directory and removed)", partitions, (pinned.logEnd() + partitions - 1) / partitions));
                }
                if (noLog != null) {
                    details.add("not read         : fluss_log: " + noLog);
                }
                bounds.forEach((name, how) -> details.add(String.format("%-17s: %s", "bound " + name, how)));
                details.add("writes           : none (nothing created, written or dropped, in Fluss or in the lake)");
                ObjectNode json = report(cfg, pinned, still, noLog, bounds);
                json.put("partitions", partitions);
                return new ProofReport(json, verdict, live, null, pinned.ddl(), details, timings);
            }
        } catch (IllegalArgumentException | TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("auditing " + path + " failed: " + Steps.rootMessage(e), e);
        }
    }

    /** Whether the log still ends at the pinned cut in every bucket. */
    private static boolean atCut(Admin admin, TablePath path, Pinned pinned) {
        try {
            return pinned.quiesced(Tiering.logOffsets(admin, path, new OffsetSpec.LatestSpec(), ADMIN_TIMEOUT));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted reading the log end offsets of " + path, e);
        } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new TierproofException("reading the log end offsets of " + path + " failed: "
                    + Steps.rootMessage(e), e);
        }
    }

    private static Pinned pin(Admin admin, TablePath path, FlussCluster cluster)
            throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
        TableInfo info = tableInfo(admin, path, cluster);
        long ms = ADMIN_TIMEOUT.toMillis();
        org.apache.fluss.client.metadata.LakeSnapshot snapshot;
        try {
            snapshot = admin.getLatestLakeSnapshot(path).get(ms, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                throw new TierproofException("table " + path + " has no lake snapshot yet: nothing is tiered to"
                        + " audit (is a tiering job running for the cluster?)");
            }
            throw e;
        }
        // The log ends after the snapshot: they hold at least its offsets (the lag is never negative).
        Map<TableBucket, Long> ends = Tiering.logOffsets(admin, path, new OffsetSpec.LatestSpec(), ADMIN_TIMEOUT);
        Map<TableBucket, Long> starts = Tiering.logOffsets(admin, path, new OffsetSpec.EarliestSpec(), ADMIN_TIMEOUT);
        return new Pinned(info, AuditedTable.ddl(info), snapshot.getSnapshotId(),
                Map.copyOf(snapshot.getTableBucketsOffset()), ends, starts);
    }

    private static TableInfo tableInfo(Admin admin, TablePath path, FlussCluster cluster)
            throws InterruptedException, ExecutionException, java.util.concurrent.TimeoutException {
        TableInfo info;
        try {
            info = admin.getTableInfo(path).get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TableNotExistException) {
                throw new IllegalArgumentException("--table " + path + ": the Fluss cluster at "
                        + cluster.bootstrapServers() + " has no such table");
            }
            throw e;
        }
        if (!info.getTableConfig().isDataLakeEnabled()) {
            throw new IllegalArgumentException("--table " + path + " is not lake-enabled"
                    + " ('table.datalake.enabled'): there is no tiered copy to audit");
        }
        return info;
    }

    /** A batch table environment with the cluster's Fluss catalog (in this JVM only), in UTC. */
    private static TableEnvironment unionReads(TableEnvironment tables, FlussCluster cluster, LakeLocation lake,
            String database) {
        FlussCatalog.use(tables, cluster, lake, CATALOG, database).getConfig().setLocalTimeZone(ZoneOffset.UTC);
        return tables;
    }

    private static ObjectNode report(Config cfg, Pinned pinned, boolean quiesced, String noLog,
            Map<String, String> bounds) {
        ObjectNode r = Report.newObject();
        r.put("command", "audit");
        r.put("table", cfg.path().toString());
        r.put("warehouse", cfg.warehouse().toString());
        r.put("lake_snapshot", pinned.snapshotId());
        r.put("tiered_changes", pinned.tiered());
        r.put("log_end", pinned.logEnd());
        r.put("tier_lag", pinned.logEnd() - pinned.tiered());
        r.put("quiesced", quiesced);
        ObjectNode lag = r.putObject("tier_lag_per_bucket");
        pinned.logEnds().forEach((b, end) -> {
            long behind = end - pinned.cut().getOrDefault(b, 0L);
            if (behind > 0) {
                lag.put(b.toString(), behind);
            }
        });
        if (noLog != null) {
            r.put("fluss_log_not_read", noLog);
        }
        ObjectNode b = r.putObject("bounds");
        bounds.forEach(b::put);
        r.put("writes", "none");
        return r;
    }
}
