package dev.tierproof.fluss;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.CheckedDdl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.nemesis.RunSetup;
import dev.tierproof.nemesis.Target;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonSnapshotRead;
import dev.tierproof.paimon.PaimonStreamReplay;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.report.ProofReport;
import dev.tierproof.report.ProofReport.Checkpoint.Kind;
import dev.tierproof.report.Report;
import dev.tierproof.report.TierLag;
import dev.tierproof.run.Reading;
import dev.tierproof.run.Steps;
import dev.tierproof.util.BoundedClose;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * The streamhouse proof of a Fluss table of any shape (issue 8): the user's Fluss DDL (composite
 * keys, partitions, buckets, merge engines, log tables) and a workload of upserts and deletes held
 * by the Rust core. Fluss tiers the table into Paimon; once tiering has quiesced (every bucket of
 * every partition), each read is judged by the core: snapshots (the lake batch read, Fluss's
 * union read and its {@code full} startup) as sets, each key once; changelogs (the lake replay in
 * Flink and in Paimon's own API, the Fluss log from the earliest offset) as streams of changes,
 * all against what the table's merge engine makes of the workload. Streaming reads stop at counts
 * taken from the sources' own bookkeeping (the log end offsets, the lake's row count), never
 * from the expected answer.
 */
public final class StreamhouseProof {
    /** How the workload is written to Fluss. */
    public enum Producer {
        /** Fluss's own Java client ({@link ClientWriter}), every acknowledgement checked. */
        CLIENT,
        /** Flink SQL {@code INSERT}/{@code DELETE} statements, each a Flink job. */
        SQL
    }

    /**
     * @param workload the workload (its DDL is the Fluss table's); the caller closes it
     * @param rowsPerInsert for the SQL producer: upserts per statement
     * @param rounds the workload written in this many rounds, each but the last followed by a
     *     wait for tiering and a checkpoint (the client producer only)
     * @param faults injected while writing (the client producer only)
     * @param tieringCheckpoints the tiering job's checkpoint interval, or null for none (as
     *     Fluss's entry point runs it)
     * @param producerOptions the Fluss client writer's settings ({@link ProducerOptions}), empty
     *     for its defaults
     * @param database the Fluss (and Paimon) database the table is created in: made if missing,
     *     and dropped again at the end of a failed run if this run made it and it is empty
     * @param ownTiering whether the proof runs Fluss's tiering job itself, or relies on the
     *     cluster's own tiering service (a cluster tierproof did not start)
     */
    public record Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert,
            Producer producer, int rounds, List<Fault> faults, Duration tieringCheckpoints,
            Map<String, String> producerOptions, String database, boolean ownTiering) {
        public Config {
            checkDatabase(database);
            Fault.refusal(faults, new RunSetup(ownTiering, warehouse)).ifPresent(refusal -> {
                throw new IllegalArgumentException(refusal);
            });
            if (!ownTiering && tieringCheckpoints != null) {
                throw new IllegalArgumentException("--tiering-checkpoints sets tierproof's own tiering job: with"
                        + " --tiering cluster there is none");
            }
            faults = List.copyOf(faults);
            producerOptions = Map.copyOf(producerOptions);
            ProducerOptions.check(producerOptions);
            if (!producerOptions.isEmpty() && producer != Producer.CLIENT) {
                throw new IllegalArgumentException("--producer-option needs --producer client: it sets the Fluss"
                        + " client's writer");
            }
            if (tieringCheckpoints != null && (tieringCheckpoints.isNegative() || tieringCheckpoints.isZero())) {
                throw new IllegalArgumentException("the tiering job's checkpoint interval " + tieringCheckpoints
                        + " must be positive");
            }
            if (!faults.isEmpty() && producer != Producer.CLIENT) {
                throw new IllegalArgumentException("--faults needs --producer client: faults come between"
                        + " operations, and SQL statements batch them");
            }
            if (rounds < 1 || rounds > workload.operations()) {
                throw new IllegalArgumentException("--rounds " + rounds + " must be between 1 and the workload's "
                        + workload.operations() + " operations");
            }
            if (rounds > 1 && producer != Producer.CLIENT) {
                throw new IllegalArgumentException("--rounds " + rounds + " needs --producer client: rounds are"
                        + " ranges of operations, and SQL statements batch them");
            }
        }

        /** The tiering job run as Fluss's entry point runs it. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert, Producer producer,
                int rounds, List<Fault> faults) {
            this(workload, warehouse, deadline, rowsPerInsert, producer, rounds, faults, null, Map.of(),
                    FlussCatalog.FLUSS_DATABASE, true);
        }

        /** Without faults. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert, Producer producer,
                int rounds) {
            this(workload, warehouse, deadline, rowsPerInsert, producer, rounds, List.of());
        }

        /** Written through the Fluss client in one round, without faults. */
        public Config(Workload workload, LakeLocation warehouse, Duration deadline, int rowsPerInsert) {
            this(workload, warehouse, deadline, rowsPerInsert, Producer.CLIENT, 1);
        }
    }

    /** How often the live checks look at the log and the lake. */
    static final Duration WATCH_INTERVAL = Duration.ofMillis(250);
    /** How long the writing client may take to close before it is abandoned (see {@link BoundedClose}). */
    static final Duration CLIENT_CLOSE = Duration.ofSeconds(30);

    /** At most this many lake snapshots are judged as consistent cuts. */
    static final int MAX_CUTS = 8;

    /** At most this many tier lag samples go into the report. */
    static final int MAX_SAMPLES = 1000;

    private StreamhouseProof() {}

    /** The table's name, checked: in Fluss database {@code database}. */
    public static String tableName(CheckedDdl ddl, String database) {
        if (ddl.database() != null && !ddl.database().equals(database)) {
            throw new IllegalArgumentException("the DDL creates its table in database " + ddl.database()
                    + "; the streamhouse proof's tables live in Fluss and Paimon database "
                    + database + " (--database): name only the table");
        }
        return ddl.table();
    }

    /** A database name Fluss takes, and one that cannot reach outside the warehouse. */
    public static void checkDatabase(String database) {
        try {
            TablePath.validateDatabaseName(database);
            dev.tierproof.core.TablePaths.pathParts(database + ".t");
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("--database " + database + ": " + e.getMessage(), e);
        }
    }

    public static ProofReport run(FlussCluster cluster, FlinkEngine engine, Config cfg, Steps steps) {
        Map<String, Long> timings = new LinkedHashMap<>();
        long startAll = System.nanoTime();
        Workload workload = cfg.workload();
        CheckedDdl ddl = workload.table();
        String db = cfg.database();
        String table = tableName(ddl, db);
        String where = " in the warehouse " + cfg.warehouse();
        if (PaimonLake.tableExists(cfg.warehouse(), db, table)) {
            throw new IllegalArgumentException("table " + db + "." + table + " already exists" + where
                    + "; tierproof never writes to a table it did not create: choose another name or --warehouse");
        }
        boolean lakeDatabaseExisted = PaimonLake.databaseExists(cfg.warehouse(), db);
        createDatabaseIfMissing(cluster, db, steps);
        TableEnvironment flussBatch = utc(FlussCatalog.register(engine.batchTables(), cluster, cfg.warehouse(), db));

        long t = System.nanoTime();
        steps.progress().step("creating Fluss table " + db + "." + table + " (datalake enabled)");
        if (!lakeDatabaseExisted) {
            steps.undo().created("database " + db + where, () -> PaimonLake.dropDatabaseIfEmpty(cfg.warehouse(), db));
        }
        steps.undo().created("lake table " + db + "." + table + where,
                () -> PaimonLake.dropTable(cfg.warehouse(), db, table));
        try {
            Statements.execute(steps, flussBatch, "CREATE TABLE " + db + "." + table, ddl.sql(), cfg.deadline());
        } catch (TierproofException e) {
            throw refused(e);
        }
        TablePath path = TablePath.of(db, table);
        if (!cluster.startedForThisRun()) {
            // Created (CREATE TABLE refuses a name that exists): a failed run leaves nothing on a cluster not ours.
            steps.undo().created("Fluss table " + db + "." + table + " at " + cluster.bootstrapServers(),
                    () -> dropFlussTable(cluster, path));
        }
        timings.put("create", Statements.millisSince(t));

        org.apache.fluss.config.Configuration clientConfig = cluster.clientConfig();
        cfg.producerOptions().forEach(clientConfig::setString);
        // Bounded: Fluss's client waits in close() for every pending write, without end while a bucket has no leader.
        try (BoundedClose<Connection> client = BoundedClose.of("the Fluss client", ConnectionFactory.createConnection(
                clientConfig), CLIENT_CLOSE, steps.progress()::step);
                TieringJob tiering = new TieringJob(engine, cluster, cfg.warehouse(), cfg.tieringCheckpoints(),
                        cfg.ownTiering());
                LakeWatch watch = LakeWatch.start(client.get().getAdmin(), path, WATCH_INTERVAL)) {
            Connection connection = client.get();
            List<String> injected = new ArrayList<>();
            Target target = new Target(cluster, tiering::restart, cfg.warehouse(), db, table);
            ClientWriter.Interruptions faults = new ClientWriter.Interruptions() {
                @Override
                public boolean acknowledgedBefore(int position) {
                    return cfg.faults().stream().anyMatch(f -> f.at() == position + 1 && !f.inFlight());
                }

                @Override
                public void inject(int position) {
                    cfg.faults().stream().filter(f -> f.at() == position + 1).forEach(f -> {
                        steps.progress().step("fault: " + f + (f.inFlight() || position == 0 ? ""
                                : " (operations 1 to " + position + " answered)"));
                        long ft = System.nanoTime();
                        f.kind().nemesis().strike(target);
                        injected.add(f + " (" + Statements.millisSince(ft) + " ms)");
                    });
                }
            };
            t = System.nanoTime();
            int statementCount = 0;
            List<String> failures = new ArrayList<>();
            List<ProofReport.Checkpoint> checkpoints = new ArrayList<>();
            Acks acks = new Acks(workload.operations());
            List<String> liveNotes = new ArrayList<>();
            int unknownOutcome = 0;
            String firstUnknown = null;
            if (cfg.producer() == Producer.CLIENT) {
                int total = workload.operations();
                for (int round = 1; round <= cfg.rounds(); round++) {
                    int start = (int) ((long) total * (round - 1) / cfg.rounds());
                    int end = (int) ((long) total * round / cfg.rounds());
                    steps.progress().step((cfg.rounds() > 1 ? "round " + round + "/" + cfg.rounds() + ": " : "")
                            + "writing operations " + (start + 1) + " to " + end + " through the Fluss client");
                    List<String> roundRejected = new ArrayList<>();
                    ClientWriter.Outcome out = ClientWriter.write(steps, connection, path, workload, start, end,
                            cfg.deadline(), faults, acks);
                    out.rejected().forEach(r -> roundRejected.add("rejected write: operation " + r.operation()
                            + ": " + r.message()));
                    if (out.rejectedCount() > out.rejected().size()) {
                        roundRejected.add((out.rejectedCount() - out.rejected().size()) + " more rejected writes");
                    }
                    failures.addAll(roundRejected);
                    unknownOutcome += out.unknownCount();
                    if (firstUnknown == null && !out.unknown().isEmpty()) {
                        firstUnknown = "operation " + out.unknown().get(0).operation() + ": "
                                + out.unknown().get(0).message();
                    }
                    if (round < cfg.rounds()) {
                        ProofReport.Checkpoint live = liveUnion(steps, cfg, watch, flussBatch, workload, round, end,
                                failures, liveNotes);
                        if (live != null) {
                            checkpoints.add(live);
                        }
                        checkpoints.add(checkpoint(steps, cfg, engine, cluster, connection, path, flussBatch,
                                workload, round, end, failures));
                    }
                }
            } else {
                List<Workload.Statement> statements = workload.statements(cfg.rowsPerInsert());
                statementCount = statements.size();
                steps.progress().step("running the workload on Fluss: " + statements.size()
                        + " statements (each a Flink job)");
                for (int i = 0; i < statements.size(); i++) {
                    Workload.Statement s = statements.get(i);
                    Statements.execute(steps, flussBatch, s.label(), s.sql(), cfg.deadline());
                    steps.progress().count("statements done", i + 1, statements.size());
                }
            }
            timings.put("write", Statements.millisSince(t));

            // Writes have stopped: the lake must catch up within the stall bound, or the verdict is STALLED
            // (the reads that end by themselves still run, as evidence of what the lake holds).
            Tiering.Quiesced q = null;
            String stalled = null;
            try {
                q = awaitTiering(steps, connection, path, cfg.deadline());
                timings.put("tiering_wait", q.waitedMillis());
                steps.progress().step("tiered: " + q.logEndOffset() + " changes in " + q.buckets() + " bucket(s),"
                        + " lake snapshot " + q.lakeSnapshotId() + " (" + q.waitedMillis() + " ms)");
            } catch (TieringStalled e) {
                stalled = e.evidence();
                steps.progress().step("STALLED: " + stalled);
            }
            watch.poll(); // the last look: the snapshot tiering ended with
            watch.close();
            failures.addAll(watch.backwards());
            String tieringFailed = tiering.failure();
            if (tieringFailed != null) {
                failures.add(tieringFailed);
            }
            long logChanges = q != null ? q.logEndOffset() : -1;
            String notRun = "not run: tiering stalled, so there is no count of the source's own to stop at";

            Verdict verdict;
            Map<String, String> bounds = new LinkedHashMap<>();
            List<String> failedReads = new ArrayList<>();
            try (Workload.Reads reads = workload.reads()) {
                Reading reading = new Reading(steps, reads, BoundedRead.GRACE, timings, bounds, failures,
                        failedReads);
                String all = workload.selectAll(Map.of());
                TableEnvironment paimonBatch = paimon(engine.batchTables(), cfg.warehouse(), cfg.database());
                // Every read is planned here, in the order the verdict judges them, and run side by
                // side: first all that need nothing of another, then those bounded by another's result.
                List<Reading.Planned> first = new ArrayList<>();
                List<Reading.Planned> second = new ArrayList<>();
                Reading.Planned lake = reading.plan("paimon_batch", Workload.Source.SNAPSHOT,
                        () -> Reading.Bound.endsByItself("a batch query ends by itself"),
                        (lane, sink) -> BoundedRead.collect(lane, paimonBatch, all, sink, cfg.deadline()));
                first.add(lake);
                if (stalled == null) {
                    TableEnvironment paimonStreaming = paimon(engine.streamingTables(), cfg.warehouse(), cfg.database());
                    String replay = workload.selectAll(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1",
                            "continuous.discovery-interval", "100ms"));
                    first.add(reading.plan("paimon_streaming", Workload.Source.REPLAY, () -> new Reading.Bound(
                            "stopped after the log's " + logChanges + " changes (the sum of the tiered log end"
                                    + " offsets)", logChanges), (lane, sink) -> BoundedRead.collect(lane,
                                            paimonStreaming, replay, sink, cfg.deadline(), logChanges)));
                } else {
                    bounds.put("paimon_streaming", notRun);
                }
                first.add(reading.plan("paimon_replay", Workload.Source.REPLAY,
                        () -> Reading.Bound.endsByItself("Paimon's stream scan up to the latest snapshot"),
                        (lane, sink) -> PaimonStreamReplay.replay(lane, cfg.warehouse(), db, table, sink,
                                workload.columns(), cfg.deadline())));
                Reading.Planned full = null;
                if (stalled == null) {
                    TableEnvironment flussStreaming = utc(FlussCatalog.register(engine.streamingTables(), cluster,
                            cfg.warehouse(), db));
                    String earliest = workload.selectAll(Map.of("scan.startup.mode", "earliest"));
                    first.add(reading.plan("fluss_changelog", Workload.Source.LOG, () -> new Reading.Bound(
                            "scan.startup.mode=earliest, stopped at the log end offsets: " + logChanges + " changes",
                            logChanges), (lane, sink) -> BoundedRead.collect(lane, flussStreaming, earliest, sink,
                                    cfg.deadline(), logChanges)));
                    // Bounded by the lake's row count: it starts once the lake read has ended.
                    String fullSql = workload.selectAll(Map.of("scan.startup.mode", "full"));
                    full = reading.plan("fluss_full", Workload.Source.SNAPSHOT, () -> new Reading.Bound(
                            "scan.startup.mode=full (lake snapshot + empty log tail), stopped after the lake's "
                                    + lake.buffer().size() + " rows", lake.buffer().size()),
                            (lane, sink) -> BoundedRead.collect(lane, flussStreaming, fullSql, sink, cfg.deadline(),
                                    lake.buffer().size()));
                    second.add(full);
                } else {
                    bounds.put("fluss_changelog", notRun);
                    bounds.put("fluss_full", notRun);
                }
                Reading.Planned union = reading.plan("fluss_union", Workload.Source.SNAPSHOT,
                        () -> Reading.Bound.endsByItself("a batch union read (lake snapshot + log) ends by itself"),
                        (lane, sink) -> BoundedRead.collect(lane, flussBatch, all, sink, cfg.deadline()));
                first.add(union);
                // COUNT(*), filters and a projection are reads too: of the lake, and of the union read
                // once that one has ended (else they would wait as it did).
                List<Reading.Planned> unionViews = new ArrayList<>();
                List<Workload.ViewQuery> views = workload.viewQueries();
                for (int i = 0; i < views.size(); i++) {
                    Workload.ViewQuery v = views.get(i);
                    first.add(reading.planView(i, "lake_" + v.name(), v.sql(), (lane, sink) -> BoundedRead.collect(
                            lane, paimonBatch, v.sql(), sink, cfg.deadline())));
                    unionViews.add(reading.planView(i, "union_" + v.name(), v.sql(), (lane, sink) ->
                            BoundedRead.collect(lane, flussBatch, v.sql(), sink, cfg.deadline())));
                }
                long readsStart = System.nanoTime();
                reading.together(first);
                if (full != null && !lake.ok()) {
                    reading.notRun(full, "not run: it is bounded by the lake's row count, and the lake read failed");
                    second.remove(full);
                }
                if (union.ok()) {
                    second.addAll(unionViews);
                } else {
                    unionViews.forEach(v -> reading.notRun(v, "not run: the union read did not end"));
                }
                reading.together(second);
                timings.put("reads", Statements.millisSince(readsStart));

                t = System.nanoTime();
                verdict = reads.judge(failures);
                timings.put("judge", Statements.millisSince(t));
                timings.put("fold", verdict.foldMillis());
            }
            t = System.nanoTime();
            List<String> live = new ArrayList<>(liveNotes);
            checkpoints.addAll(cuts(steps, cfg, watch, acks, workload, db, table, live, unknownOutcome));
            timings.put("cuts", Statements.millisSince(t));
            timings.put("total", Statements.millisSince(startAll));

            List<String> details = new ArrayList<>();
            details.add(String.format("written by       : %s", cfg.producer() == Producer.CLIENT
                    ? "the Fluss client, " + workload.operations() + " operations, " + (failures.stream()
                            .noneMatch(f -> f.startsWith("rejected write")) ? "every write acknowledged"
                            : "SOME WRITES REJECTED (below)")
                    : "Flink SQL, " + statementCount + " statements"));
            if (unknownOutcome > 0) {
                details.add(String.format("outcome unknown  : %d write(s) whose acknowledgement the network lost (%s);"
                        + " judged as written: every read must hold them", unknownOutcome, firstUnknown));
            }
            if (!cfg.producerOptions().isEmpty()) {
                details.add(String.format("producer options : %s", ProducerOptions.text(
                        new java.util.TreeMap<>(cfg.producerOptions()))));
            }
            if (!injected.isEmpty()) {
                details.add(String.format("faults           : %s", String.join(", ", injected)));
            }
            details.add(String.format("tiered into      : Paimon %s.%s in %s", db, table,
                    cfg.warehouse()));
            if (!cfg.ownTiering()) {
                details.add("tiering job      : the cluster's own tiering service (--tiering cluster)");
            }
            details.add(q != null ? String.format("tiering          : %d changes in %d bucket(s), lake snapshot %d,"
                    + " caught up in %d ms", q.logEndOffset(), q.buckets(), q.lakeSnapshotId(), q.waitedMillis())
                    : "tiering          : STALLED: " + stalled);
            bounds.forEach((name, bound) -> details.add(String.format("%-17s: bound: %s", name, bound)));
            live.forEach(line -> details.add(String.format("live checks      : %s", line)));
            return new ProofReport(report(cfg, ddl, table, statementCount, cluster, q, bounds, verdict), verdict,
                    checkpoints, stalled, ddl.sql(), details, timings).withTierLag(lag(watch.samples()))
                    .withFailedReads(failedReads);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("the streamhouse proof failed: " + e.getMessage(), e);
        }
    }

    /**
     * A CREATE TABLE that Fluss refused as invalid (its key, partitions or options) is bad input,
     * not a finding: nothing was created and nothing was read. Anything else stays what it was.
     */
    private static RuntimeException refused(TierproofException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException || t instanceof org.apache.fluss.exception.InvalidTableException
                    || t instanceof org.apache.fluss.exception.InvalidConfigException) {
                return new IllegalArgumentException("Fluss refuses the table: " + t.getMessage(), e);
            }
        }
        return e;
    }

    /**
     * The lake tiering job, which a fault may cancel and start again; or none of tierproof's, when
     * the cluster's own tiering service tiers the table.
     */
    private static final class TieringJob implements AutoCloseable {
        private final FlinkEngine engine;
        private final FlussCluster cluster;
        private final LakeLocation warehouse;
        private final Duration checkpoints;
        /** null: the cluster's own tiering service tiers the table (nothing to watch, restart or stop). */
        private Tiering current;

        TieringJob(FlinkEngine engine, FlussCluster cluster, LakeLocation warehouse, Duration checkpoints,
                boolean own) {
            this.engine = engine;
            this.cluster = cluster;
            this.warehouse = warehouse;
            this.checkpoints = checkpoints;
            this.current = own ? Tiering.start(engine, cluster, warehouse, FlussCatalog.TIERING_POLL, checkpoints)
                    : null;
        }

        /** Why the running tiering job failed, or null. */
        synchronized String failure() {
            return current == null ? null : current.failure();
        }

        synchronized void restart() {
            if (current == null) {
                throw new IllegalStateException("no tiering job of tierproof's to restart");
            }
            current.close();
            current = Tiering.start(engine, cluster, warehouse, FlussCatalog.TIERING_POLL, checkpoints);
        }

        @Override
        public synchronized void close() {
            if (current != null) {
                current.close();
            }
        }
    }

    /** Waits, as a step, until the lake holds every bucket's log up to its end offset. */
    private static Tiering.Quiesced awaitTiering(Steps steps, Connection connection, TablePath path,
            Duration deadline) {
        steps.progress().step("waiting for tiering to quiesce (every bucket's lake offset = its log end offset)");
        AtomicReference<String> seen = new AtomicReference<>("offsets not read yet");
        return steps.run("waiting for tiering to quiesce", deadline, control -> {
            control.detail(() -> seen.get() + Tiering.NO_CHANGE_NOTE);
            Duration freshness = connection.getAdmin().getTableInfo(path).get().getTableConfig()
                    .getDataLakeFreshness();
            return Tiering.awaitQuiesced(connection.getAdmin(), path, Tiering.stallBound(freshness, deadline), seen);
        });
    }

    /**
     * A live check between rounds, before tiering catches up: the union read (the lake's latest
     * snapshot merged with the log tail above its offsets) must already hold what every write so
     * far makes of the table — the promise while the lake lags, not only once it has caught up.
     * Not taken (a note says so) before the table has a readable lake snapshot: Fluss's batch
     * union read refuses to run until then.
     */
    private static ProofReport.Checkpoint liveUnion(Steps steps, Config cfg, LakeWatch watch,
            TableEnvironment flussBatch, Workload workload, int round, int written, List<String> failures,
            List<String> notes) {
        watch.poll();
        if (watch.cuts().isEmpty()) {
            // Fluss refuses a batch union read until the table has a readable lake snapshot, by design.
            notes.add("no union read after round " + round + ": no readable lake snapshot yet (Fluss's batch"
                    + " union read needs one)");
            return null;
        }
        List<LakeWatch.Sample> samples = watch.samples();
        String lake = samples.isEmpty() ? "lake not polled yet" : lagText(samples.get(samples.size() - 1));
        try (Workload prefix = workload.prefix(written); Workload.Reads reads = prefix.reads()) {
            steps.progress().step("live check after round " + round + ": the union read while " + lake);
            Reading reading = new Reading(steps, reads, BoundedRead.GRACE, failures);
            String all = prefix.selectAll(Map.of());
            reading.together(List.of(reading.plan("fluss_union", Workload.Source.SNAPSHOT,
                    () -> Reading.Bound.endsByItself(""), (lane, sink) -> BoundedRead.collect(lane, flussBatch, all,
                            sink, cfg.deadline()))));
            return new ProofReport.Checkpoint(Kind.LIVE_UNION, "union read after round " + round
                    + " (operations 1-" + written + ") while " + lake, reads.judge(reading.failures()), null);
        }
    }

    /** Where tiering stood, for people: {@code lake snapshot 3 holds 120 of 200 changes}. */
    private static String lagText(LakeWatch.Sample s) {
        return s.lakeSnapshot() < 0 ? "no lake snapshot yet (" + s.logEnd() + " changes in the log)"
                : "lake snapshot " + s.lakeSnapshot() + " holds " + s.tiered() + " of " + s.logEnd() + " changes";
    }

    /**
     * A checkpoint between rounds: once tiering has quiesced, the lake's batch read and Fluss's
     * union read must hold what the operations written so far make of the table.
     */
    private static ProofReport.Checkpoint checkpoint(Steps steps, Config cfg, FlinkEngine engine,
            FlussCluster cluster, Connection connection, TablePath path, TableEnvironment flussBatch,
            Workload workload, int round, int written, List<String> failures) {
        String stalled = null;
        String lake;
        try {
            lake = "lake snapshot " + awaitTiering(steps, connection, path, cfg.deadline()).lakeSnapshotId();
        } catch (TieringStalled e) {
            stalled = e.evidence();
            lake = "tiering stalled";
        }
        try (Workload prefix = workload.prefix(written); Workload.Reads reads = prefix.reads()) {
            String all = prefix.selectAll(Map.of());
            steps.progress().step("checkpoint after round " + round + ": the lake and the union read");
            // A read that fails here is this checkpoint's finding, as in the final reads.
            Reading reading = new Reading(steps, reads, BoundedRead.GRACE, failures);
            TableEnvironment paimonBatch = paimon(engine.batchTables(), cfg.warehouse(), cfg.database());
            reading.together(List.of(
                    reading.plan("paimon_batch", Workload.Source.SNAPSHOT, () -> Reading.Bound.endsByItself(""),
                            (lane, sink) -> BoundedRead.collect(lane, paimonBatch, all, sink, cfg.deadline())),
                    reading.plan("fluss_union", Workload.Source.SNAPSHOT, () -> Reading.Bound.endsByItself(""),
                            (lane, sink) -> BoundedRead.collect(lane, flussBatch, all, sink, cfg.deadline()))));
            return new ProofReport.Checkpoint(Kind.AFTER_ROUND, "after round " + round + " (operations 1-"
                    + written + ", " + lake + ")", reads.judge(reading.failures()), stalled);
        }
    }

    /**
     * The live checks' verdicts: each readable lake snapshot the watch saw (at most
     * {@value #MAX_CUTS}, spread over the run, the last always) read at exactly that snapshot and
     * judged against exactly the acknowledged writes below its per-bucket offsets. {@code live}
     * gets lines for people: what was seen, what was judged, the largest lag.
     */
    private static List<ProofReport.Checkpoint> cuts(Steps steps, Config cfg, LakeWatch watch, Acks acks,
            Workload workload, String db, String table, List<String> live, int unknownOutcome) {
        List<LakeWatch.Sample> samples = watch.samples();
        List<LakeWatch.Cut> seen = watch.cuts();
        long maxLag = samples.stream().mapToLong(LakeWatch.Sample::lag).max().orElse(0);
        live.add(samples.size() + " polls every " + WATCH_INTERVAL.toMillis() + " ms, " + seen.size()
                + " readable lake snapshot(s) seen, largest lag " + maxLag + " changes"
                + (watch.logEndDips() > 0 ? ", a log end offset read lower than before " + watch.logEndDips()
                        + " time(s)" : ""));
        if (watch.failedPolls() != null) {
            live.add(watch.failedPolls());
        }
        if (unknownOutcome > 0) {
            live.add("no consistent cuts judged: " + unknownOutcome + " write(s) have an unknown outcome, and so"
                    + " no offset to place them below or above a snapshot's");
            return List.of();
        }
        if (!acks.any()) {
            live.add("no consistent cuts judged: " + (cfg.producer() == Producer.SQL ? "SQL writes"
                    : "appends to a log table") + " do not say which bucket offset they landed at");
            return List.of();
        }
        List<LakeWatch.Cut> inside = seen.stream().filter(c -> !acks.endsBatches(c.offsets())).toList();
        if (!inside.isEmpty()) {
            live.add(inside.size() + " lake snapshot(s) not judged as cuts: tiering committed them inside a write"
                    + " batch (" + inside.stream().limit(3).map(c -> "snapshot " + c.snapshotId() + " at "
                            + offsets(c)).collect(java.util.stream.Collectors.joining(", "))
                    + (inside.size() > 3 ? ", …" : "") + "), and an acknowledgement gives only its batch's end offset,"
                    + " so which of that batch's writes lie below is unknown");
            seen = seen.stream().filter(c -> !inside.contains(c)).toList();
        }
        List<LakeWatch.Cut> chosen = new ArrayList<>();
        for (int i = 0; i < MAX_CUTS && i < seen.size(); i++) {
            LakeWatch.Cut c = seen.get(seen.size() <= MAX_CUTS ? i
                    : (int) ((long) (seen.size() - 1) * (i + 1) / MAX_CUTS));
            if (!chosen.contains(c)) {
                chosen.add(c);
            }
        }
        live.add(chosen.size() + " cut(s) judged: each lake snapshot read at exactly that snapshot, against the"
                + " acknowledged writes below its per-bucket offsets");
        List<ProofReport.Checkpoint> out = new ArrayList<>();
        for (LakeWatch.Cut cut : chosen) {
            int[] positions = acks.within(cut.offsets());
            steps.progress().step("consistent cut: lake snapshot " + cut.snapshotId() + " (" + positions.length
                    + " writes)");
            List<String> failed = new ArrayList<>();
            try (Workload sub = workload.subset(positions); Workload.Reads reads = sub.reads()) {
                Workload.ReadBuffer lake = reads.open("lake_snapshot_" + cut.snapshotId(), Workload.Source.SNAPSHOT);
                try {
                    PaimonSnapshotRead.read(steps, cfg.warehouse(), db, table, cut.snapshotId(), lake,
                            workload.columns(), cfg.deadline());
                } catch (TierproofException e) {
                    if (steps.endsTheRun(e)) {
                        throw e;
                    }
                    reads.drop(lake);
                    failed.add("lake snapshot " + cut.snapshotId() + ": " + e.getMessage());
                }
                out.add(new ProofReport.Checkpoint(Kind.CUT, "consistent cut at lake snapshot "
                        + cut.snapshotId() + " (seen at " + cut.atMillis() + " ms; " + positions.length + " of "
                        + workload.operations()
                        + " writes below its offsets " + offsets(cut) + ")", reads.judge(failed), null));
            }
        }
        return out;
    }

    /** A cut's offsets, short: {@code b0=12 b1=7}, with the partition id when there is one. */
    private static String offsets(LakeWatch.Cut cut) {
        StringBuilder sb = new StringBuilder();
        cut.offsets().entrySet().stream()
                .sorted(java.util.Comparator.comparing((Map.Entry<TableBucket, Long> e) ->
                        e.getKey().getPartitionId() == null ? -1 : e.getKey().getPartitionId())
                        .thenComparing(e -> e.getKey().getBucket()))
                .limit(8)
                .forEach(e -> sb.append(sb.length() > 0 ? " " : "")
                        .append(e.getKey().getPartitionId() == null ? "" : "p" + e.getKey().getPartitionId() + "/")
                        .append('b').append(e.getKey().getBucket()).append('=').append(e.getValue()));
        return cut.offsets().size() > 8 ? sb + " …" : sb.toString();
    }

    /** The tier lag over time, for tools and for the plot: at most {@value #MAX_SAMPLES} samples. */
    private static List<TierLag> lag(List<LakeWatch.Sample> samples) {
        List<TierLag> out = new ArrayList<>();
        int step = Math.max(1, (samples.size() + MAX_SAMPLES - 1) / MAX_SAMPLES);
        for (int i = 0; i < samples.size(); i += step) {
            LakeWatch.Sample s = samples.get(i);
            out.add(new TierLag(s.atMillis(), s.logEnd(), s.tiered(), s.lakeSnapshot()));
        }
        return out;
    }

    /**
     * Makes the Fluss database if it is missing; a run that does not complete drops it again when
     * it is still empty (never one it did not make, never with tables in it).
     */
    private static void createDatabaseIfMissing(FlussCluster cluster, String db, Steps steps) {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig())) {
            var admin = connection.getAdmin();
            if (admin.databaseExists(db).get(30, java.util.concurrent.TimeUnit.SECONDS)) {
                return;
            }
            steps.progress().step("creating Fluss database " + db);
            try {
                admin.createDatabase(db, org.apache.fluss.metadata.DatabaseDescriptor.EMPTY, false)
                        .get(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof org.apache.fluss.exception.DatabaseAlreadyExistException) {
                    return; // made meanwhile by someone else: theirs, never dropped by this run
                }
                throw e;
            }
            // Made by this run (registered once made: a database someone else made meanwhile is never dropped).
            steps.undo().created("Fluss database " + db + " at " + cluster.bootstrapServers(), () -> {
                try (Connection again = ConnectionFactory.createConnection(cluster.clientConfig())) {
                    var a = again.getAdmin();
                    if (a.listTables(db).get(30, java.util.concurrent.TimeUnit.SECONDS).isEmpty()) {
                        a.dropDatabase(db, true, false).get(30, java.util.concurrent.TimeUnit.SECONDS);
                    }
                }
            });
        } catch (TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("could not create Fluss database " + db + ": " + Steps.rootMessage(e), e);
        }
    }

    private static void dropFlussTable(FlussCluster cluster, TablePath path) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig())) {
            connection.getAdmin().dropTable(path, true).get(30, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** TIMESTAMP_LTZ values are written and read as UTC instants. */
    private static TableEnvironment utc(TableEnvironment tables) {
        tables.getConfig().setLocalTimeZone(ZoneOffset.UTC);
        return tables;
    }

    private static TableEnvironment paimon(TableEnvironment tables, LakeLocation warehouse, String db) {
        PaimonTables.register(utc(tables), warehouse);
        tables.useDatabase(db);
        return tables;
    }

    private static ObjectNode report(Config cfg, CheckedDdl ddl, String table, int statements,
            FlussCluster cluster, Tiering.Quiesced q, Map<String, String> bounds, Verdict verdict) {
        ObjectNode r = Report.newObject();
        r.put("command", "streamhouse");
        r.put("status", "completed");
        r.put("table", cfg.database() + "." + table);
        r.put("ddl", ddl.sql());
        r.put("keyed", ddl.keyed());
        r.put("producer", cfg.producer().name().toLowerCase(java.util.Locale.ROOT));
        r.put("faults", cfg.faults().toString());
        r.put("producer_options", ProducerOptions.text(new java.util.TreeMap<>(cfg.producerOptions())));
        r.put("tiering_checkpoint_ms", cfg.tieringCheckpoints() == null ? 0 : cfg.tieringCheckpoints().toMillis());
        r.put("tiering_job", cfg.ownTiering() ? "tierproof's" : "the cluster's");
        r.put("operations", cfg.workload().operations());
        if (cfg.producer() == Producer.SQL) {
            r.put("statements", statements);
            r.put("rows_per_insert", cfg.rowsPerInsert());
        }
        ObjectNode fluss = r.putObject("fluss");
        fluss.put("bootstrap_servers", cluster.bootstrapServers());
        fluss.put("database", cfg.database());
        fluss.put("table", table);
        if (q != null) {
            fluss.put("log_changes", q.logEndOffset());
            fluss.put("buckets_with_changes", q.buckets());
            fluss.put("lake_snapshot_id", q.lakeSnapshotId());
        }
        ObjectNode paimon = Report.putPaimon(r, cfg.warehouse().warehouse(), cfg.database(), table);
        paimon.put("note", "Fluss's system columns (__bucket, __offset, __timestamp) are left out of the comparison");
        if (q != null) {
            r.put("tiering_wait_ms", q.waitedMillis());
        }
        r.put("consistent", verdict.consistent());
        ObjectNode b = r.putObject("bounds");
        bounds.forEach(b::put);
        return r;
    }
}
