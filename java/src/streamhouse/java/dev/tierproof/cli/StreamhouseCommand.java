package dev.tierproof.cli;

import dev.tierproof.core.Workload;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.proof.FinalRead;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.deploy.ProcessCluster;
import dev.tierproof.deploy.ProcessFlussCluster;
import dev.tierproof.fluss.ProducerOptions;
import dev.tierproof.fluss.RemoteFlussCluster;
import dev.tierproof.proof.StreamhouseProof;
import dev.tierproof.nemesis.Deployment;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.report.ProofReport;
import dev.tierproof.util.HostPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tierproof streamhouse}: a real Fluss cluster tiering into Paimon, every read compared.
 * Whatever happens (a failure, Ctrl-C), the tiering job, the Flink MiniCluster and the Fluss
 * cluster are stopped and the run's directory is removed.
 */
@Command(name = "streamhouse", mixinStandardHelpOptions = true,
        description = "A real Fluss cluster tiering into Paimon; every read compared with what the table's merge"
                + " engine makes of the workload (the last value per key, for the tiered table).")
final class StreamhouseCommand extends TierproofCommand {
    /** Up to this many upserts run as one INSERT each (each is a Flink job of about 2.5 s). */
    static final int PER_UPSERT_LIMIT = 20;

    @Option(names = "--table", paramLabel = "NAME",
            description = "the table, in Fluss and Paimon database fluss (ASCII letters, digits, _ and -;"
                    + " default accounts; with --ddl-file, the DDL's own name)")
    String table;

    @Mixin
    TableOptions tableOptions;

    @Option(names = "--rows-per-insert", paramLabel = "N",
            description = "upserts per INSERT statement, 1 to " + PaimonProof.MAX_ROWS_PER_INSERT
                    + " (default 1 up to " + PER_UPSERT_LIMIT + " upserts, else 2000)")
    Integer rowsPerInsert;

    @Option(names = "--producer", paramLabel = "client|sql", defaultValue = "client",
            description = "how the workload is written: the Fluss Java client (every acknowledgement checked) or"
                    + " Flink SQL statements, each a Flink job (default ${DEFAULT-VALUE})")
    String producer;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
            description = "write the workload in N rounds; after each but the last, wait for tiering and check"
                    + " the lake and the union read against the operations so far (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--faults", paramLabel = "SCHEDULE", description = "faults injected while writing, e.g."
            + " restart-tablet@40,restart-tiering@80: just before operation N, once the operations before it are"
            + " answered (KIND@N:in-flight: as they are), restart tablet server 0 (same id, data"
            + " and port; move-tablet: on a new port), cancel and restart the tiering job (retune-tiering: with other"
            + " settings, Flink checkpoints on or off and another poll interval), or restart the"
            + " coordinator (restart-coordinator) or ZooKeeper (restart-zookeeper), or make the lake table's commits"
            + " fail for 10 s (lake-outage); kill-leader restarts the tablet server that leads a bucket the run"
            + " writes when it strikes; with --cluster, kill the lake's store and start it again (restart-lake), or"
            + " stop that leader for a length while the writes go on (pause-leader@N+8s: SIGSTOP, then SIGCONT);"
            + " or maintain the lake table as users do, beside tiering (compact-lake: a full compaction by a writer"
            + " of its own; tag-lake: a tag on its latest snapshot; expire-lake: every snapshot but the latest"
            + " expired; retune-freshness: its table.datalake.freshness altered); or add the workload's last column"
            + " (add-column: the table is created without it, ALTER TABLE … ADD before operation N)")
    String faults;

    @Option(names = "--producer-option", paramLabel = "KEY=VALUE", description = "a setting of the Fluss client's"
            + " writer, e.g. client.writer.batch-size=1kb (repeatable; checked against Fluss's own options)")
    List<String> producerOptions = new ArrayList<>();

    @Option(names = "--writers", paramLabel = "N", description = "write through N Fluss clients at once (1-8),"
            + " each its own connection, writer and keys, so the expected state stays exact (default 1)")
    int writers = 1;

    @Option(names = "--tiering-checkpoints", paramLabel = "SECONDS", description = "run the tiering job with Flink"
            + " checkpoints every SECONDS (and so Flink's restart strategy) instead of as Fluss's entry point runs it"
            + " (no checkpoints, no restarts)")
    Integer tieringCheckpoints;

    @Option(names = "--reads", paramLabel = "READ", split = ",", description = "run only these of the final"
            + " reads, in the order the verdict judges them: paimon_batch, paimon_streaming, paimon_replay,"
            + " fluss_changelog, fluss_full (needs paimon_batch), fluss_union, views (needs fluss_union); default all")
    List<String> reads;

    @Mixin
    WorkloadOptions workload;

    @Option(names = "--replay", paramLabel = "DIR", description = "run a reproducer that search wrote again: its"
            + " table, workload, rounds and faults")
    Path replay;

    @Option(names = "--fluss", paramLabel = "HOST:PORT", description = "prove on a Fluss cluster tierproof did not"
            + " start (its coordinator; e.g. ./build.sh cluster up's), whose Paimon lake is --warehouse DIR or"
            + " s3://BUCKET/PATH, hdfs://NAMENODE:PORT/PATH or gs://BUCKET/PATH (with --conf FILE); tierproof"
            + " creates its table there and drops it if the run fails")
    String fluss;

    @Option(names = "--database", paramLabel = "NAME", description = "the Fluss and Paimon database tierproof makes"
            + " its table in (made if missing; dropped again by a failed run that made it, when empty); default "
            + FOREIGN_DATABASE + " with --fluss (a database of its own on a cluster it did not start), else "
            + FlussCatalog.FLUSS_DATABASE)
    String database;

    @Option(names = "--tiering", paramLabel = "own|cluster", defaultValue = "own", description = "who tiers the"
            + " table into the lake: tierproof's own tiering job (default), or, with --fluss, the cluster's own tiering"
            + " service already running for it (then no job of tierproof's tiers anything, and the cluster may hold"
            + " other lake tables)")
    String tiering;

    @Option(names = "--history", paramLabel = "DIR", description = "keep the run's history in DIR (missing or empty):"
            + " its table and workload, the writes of unknown outcome, the faults, and every final read's changes as"
            + " they were read; tierproof check DIR judges it again with no servers")
    Path history;

    private boolean ownTiering() {
        return switch (tiering) {
            case "own" -> true;
            case "cluster" -> false;
            default -> throw new IllegalArgumentException("--tiering " + tiering + " is not own or cluster");
        };
    }

    /** The database of tierproof's own on a cluster it did not start. */
    static final String FOREIGN_DATABASE = "tierproof";

    @Option(names = "--tablet-servers", paramLabel = "N", description = "the embedded cluster's tablet servers, 1 to "
            + Streamhouse.MAX_TABLET_SERVERS + " (default 1): with more, the table may keep replicas"
            + " ('table.replication.factor' = 'N')")
    Integer tabletServers;

    @Option(names = "--cluster", paramLabel = "DIR", description = "prove on the cluster ./build.sh cluster up runs in"
            + " DIR (its coordinator, its lake and its Flink session cluster); faults there kill -9 a server process"
            + " and start it again")
    Path clusterDir;

    @Option(names = "--flink", paramLabel = "HOST:PORT", description = "run the jobs (the tiering job, the reads) on"
            + " the Flink session cluster whose REST endpoint this is, with --fluss (its TaskManagers need the Paimon"
            + " and Fluss connectors on their class path)")
    String flink;

    @Option(names = "--ship-connectors", description = "with --flink: every job takes the Paimon and Fluss"
            + " connectors along (pipeline.jars, loaded child-first), for a Flink cluster without them in its lib/")
    boolean shipConnectors;

    @Mixin
    RunOptions run;

    /** The cluster {@code --fluss} or {@code --cluster} names, once checked; null: the embedded one. */
    private FlussCluster external;
    /** The lake: {@code --cluster}'s (the warehouse its servers tier into) or {@code --warehouse}; null: temporary. */
    private LakeLocation lake;
    /** Where the jobs run: {@code --flink}, or {@code --cluster}'s session cluster; null: a MiniCluster. */
    private String flinkRest;

    private Duration checkpoints() {
        if (tieringCheckpoints == null) {
            return null;
        }
        if (tieringCheckpoints < 1 || tieringCheckpoints > 3600) {
            throw new IllegalArgumentException("--tiering-checkpoints " + tieringCheckpoints
                    + " must be between 1 and 3600 seconds");
        }
        return Duration.ofSeconds(tieringCheckpoints);
    }

    private Set<FinalRead> finalReads() {
        return FinalRead.given(reads);
    }

    private StreamhouseProof.Producer producer() {
        return switch (producer) {
            case "client" -> StreamhouseProof.Producer.CLIENT;
            case "sql" -> StreamhouseProof.Producer.SQL;
            default -> throw new IllegalArgumentException("--producer " + producer + " is not client or sql");
        };
    }

    @Override
    public Integer call() {
        if (replay != null) {
            Replay r = Replay.read(replay).checkFor("streamhouse");
            if (faults != null || rounds != 1) {
                throw new IllegalArgumentException("--replay DIR names the rounds and the faults: give no --rounds or"
                        + " --faults with it");
            }
            if (!producerOptions.isEmpty()) {
                throw new IllegalArgumentException("--replay DIR names the producer's options: give no"
                        + " --producer-option with it");
            }
            r.applyTo(tableOptions, workload);
            if (r.tabletServers() > 1 && tabletServers == null) {
                tabletServers = r.tabletServers(); // its table keeps replicas on as many servers
            }
            if (r.tieringCheckpoints() != null && tieringCheckpoints == null) {
                tieringCheckpoints = r.tieringCheckpoints(); // the failing run's tiering job restarted after a failure
            }
            rounds = r.rounds();
            faults = r.faults();
            if (writers != 1) {
                throw new IllegalArgumentException("--replay DIR names how many writers wrote: give no --writers with"
                        + " it");
            }
            writers = r.writers();
            producerOptions = new ArrayList<>(ProducerOptions.fromText(r.producerOptions()).entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).toList());
        }
        // Checked before anything starts.
        producer();
        finalReads();
        String usersDdl = tableOptions.ddl(table, Workload.Target.FLUSS);
        // A name Fluss refuses is refused here, before any cluster starts.
        String ddl = usersDdl != null ? usersDdl : FlussCatalog.tieredTableDdl(table != null ? table : "accounts");
        String source = usersDdl != null ? tableOptions.source() : "the tiered table";
        WorkloadOptions.Opened opened = workload.open(Workload.Target.FLUSS, ddl, source, null, null,
                usersDdl == null ? WorkloadOptions::example : null);
        if (database == null) {
            database = fluss != null ? FOREIGN_DATABASE : FlussCatalog.FLUSS_DATABASE;
        }
        StreamhouseProof.checkDatabase(database);
        try (Workload checked = opened.workload()) {
            if (usersDdl != null) {
                String name = StreamhouseProof.tableName(checked.table(), database);
                if (table != null && !table.equals(name)) {
                    throw new IllegalArgumentException("--table " + table + " but the DDL creates " + name
                            + "; leave --table out");
                }
            }
            int perInsert = rowsPerInsert != null ? rowsPerInsert
                    : checked.operations() <= PER_UPSERT_LIMIT ? 1 : 2000;
            // Checked up front: the rounds, the faults, and what the SQL producer cannot write.
            List<Fault> schedule = Fault.parse(faults, checked.operations());
            if (clusterDir != null && (fluss != null || run.warehouse != null || flink != null || run.conf != null
                    || shipConnectors)) {
                throw new IllegalArgumentException("--cluster " + clusterDir + " names the coordinator, the warehouse"
                        + " (and its settings) and the Flink session cluster: give no --fluss, --warehouse, --conf,"
                        + " --flink or --ship-connectors with it");
            }
            if (clusterDir != null) {
                ProcessCluster.State state = ProcessCluster.read(clusterDir).orElseThrow(() ->
                        new IllegalArgumentException("--cluster " + clusterDir + ": no cluster is up there"
                                + " (./build.sh cluster up --dir " + clusterDir + ")"));
                RemoteFlussCluster.connect(state.fluss(), Duration.ofSeconds(10)); // it answers
                external = new ProcessFlussCluster(state);
                lake = state.lake();
                flinkRest = state.hasFlink() ? state.flink() : null;
                shipConnectors = !state.flinkHasConnectors();
                refuse(schedule, Deployment.clusterUp(ProcessCluster.lakeRestartRefusal(state),
                        ProcessCluster.networkRefusal(state), ProcessCluster.diskRefusal(state),
                        ProcessCluster.clockRefusal(state)));
            } else if (fluss == null) {
                refuse(schedule, Deployment.embedded());
            }
            if (tabletServers != null && (fluss != null || clusterDir != null)) {
                throw new IllegalArgumentException("--tablet-servers sizes the embedded cluster; a cluster tierproof"
                        + " did not start has its own (./build.sh cluster up --tablet-servers N sizes cluster up's)");
            }
            if (tabletServers != null && (tabletServers < 1 || tabletServers > Streamhouse.MAX_TABLET_SERVERS)) {
                throw new IllegalArgumentException("--tablet-servers " + tabletServers + " must be between 1 and "
                        + Streamhouse.MAX_TABLET_SERVERS);
            }
            if (fluss != null && !schedule.isEmpty()) {
                throw new IllegalArgumentException("--faults restart servers, which tierproof does only on the cluster"
                        + " it starts itself: leave --fluss out to run them");
            }
            if (shipConnectors && flink == null && clusterDir == null) {
                throw new IllegalArgumentException("--ship-connectors needs --flink HOST:PORT: it is how jobs reach"
                        + " a Flink cluster without the connectors");
            }
            if (flink != null && fluss == null) {
                throw new IllegalArgumentException("--flink " + flink + " needs --fluss HOST:PORT and --warehouse DIR:"
                        + " the embedded Fluss cluster's lake is not where a Flink session cluster can reach it");
            }
            if (flink != null) {
                HostPort.parse("--flink", flink, "a JobManager's REST endpoint");
                flinkRest = flink;
            }
            if (fluss != null && run.warehouse == null) {
                throw new IllegalArgumentException("--fluss " + fluss + " needs --warehouse DIR: the Paimon warehouse"
                        + " that cluster tiers into (datalake.paimon.warehouse)");
            }
            if (clusterDir == null) {
                lake = run.lake();
            }
            // Checked before anything is made: the address, and that no table of others would be tiered.
            if (!ownTiering() && fluss == null) {
                throw new IllegalArgumentException("--tiering cluster relies on the tiering service of a cluster"
                        + " tierproof did not start: it needs --fluss HOST:PORT");
            }
            if (fluss != null) {
                RemoteFlussCluster remote = RemoteFlussCluster.connect(fluss, Duration.ofSeconds(10))
                        .refuseIfLakeElsewhere(lake, Duration.ofSeconds(30));
                // tierproof's own tiering job would tier every lake table there; the cluster's tiers them anyway.
                external = ownTiering() ? remote.refuseIfOthersWouldBeTiered(Duration.ofSeconds(30)) : remote;
            }
            new StreamhouseProof.Config(checked, lake, null, perInsert, producer(), rounds, schedule,
                    checkpoints(), ProducerOptions.parse(producerOptions), database, ownTiering(), finalReads())
                    .withWriters(writers);
            if (producer() == StreamhouseProof.Producer.SQL) {
                checked.statements(perInsert);
            }
            List<Path> inputs = new ArrayList<>(workload.inputs());
            inputs.add(tableOptions.ddlFile);
            return onTable(checked, perInsert, schedule, (usersDdl != null ? "the Fluss table of " + source + ", "
                    : "")
                    + opened.source(), inputs);
        }
    }

    /**
     * Every input checked, then one run of the streamhouse proof of {@code checked}: its own
     * directory, a Fluss cluster with a Paimon lake, a MiniCluster; whatever happens (a failure,
     * Ctrl-C), the tiering job, Flink and the cluster are stopped and the run's directory removed.
     */
    private int onTable(Workload checked, int perInsert, List<Fault> schedule, String describe, List<Path> inputs) {
        PaimonProof.checkRowsPerInsert(perInsert);
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        if (history != null) {
            dev.tierproof.run.History.check(history);
        }
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(lake);
        Duration deadline = run.deadline(120);
        try (RunSession session = RunSession.start("streamhouse", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.println("tierproof streamhouse: " + describe + ", Paimon warehouse " + warehouse.describe());
            var progress = session.steps().progress();
            Streamhouse servers = external != null ? Streamhouse.on(session, external, flinkRest, shipConnectors)
                    : Streamhouse.start(session, warehouse.lake(), tabletServers != null ? tabletServers : 1);
            StreamhouseProof.Config cfg = new StreamhouseProof.Config(checked, warehouse.lake(), deadline, perInsert,
                    producer(), rounds, schedule, checkpoints(), ProducerOptions.parse(producerOptions), database,
                    ownTiering(), finalReads()).withWriters(writers);
            if (history != null) {
                dev.tierproof.run.History kept = dev.tierproof.run.History.create(history, "streamhouse",
                        Workload.Target.FLUSS);
                kept.workload(checked.table().sql(), checked.workloadCsv());
                cfg = cfg.withHistory(kept);
                progress.step("keeping the run's history in " + history);
            }
            ProofReport result = StreamhouseProof.run(servers.cluster(), servers.engine(), cfg, session.steps());
            session.completed();
            progress.step("stopping Flink and the Fluss cluster");
            return ReportOutput.print(main.out, main.err, result, report, "DDL (Fluss)");
        }
    }

    /** Refuses, before anything starts, a schedule with a fault that cannot strike a cluster deployed so. */
    private static void refuse(List<Fault> schedule, Deployment deployment) {
        Fault.refusal(schedule, deployment).ifPresent(refusal -> {
            throw new IllegalArgumentException(refusal);
        });
    }
}
