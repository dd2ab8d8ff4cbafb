package dev.tierproof.cli;

import dev.tierproof.audit.TableAudit;
import dev.tierproof.core.TablePaths;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.deploy.ProcessCluster;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.fluss.RemoteFlussCluster;
import dev.tierproof.report.ProofReport;
import dev.tierproof.util.HostPort;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.fluss.metadata.TablePath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tierproof audit}: a read-only check of a lake-enabled Fluss table tierproof did not
 * create ({@link TableAudit}); with {@code --every}, the audit again and again (a watch).
 */
@Command(name = "audit", mixinStandardHelpOptions = true,
        description = "Check a lake-enabled Fluss table someone else wrote, read-only: its latest lake snapshot"
                + " against Fluss's log up to that snapshot's offsets, and the union read; each key once in every"
                + " snapshot read; the tier lag. Writes nothing, in Fluss or in the lake.")
final class AuditCommand extends TierproofCommand {
    @Option(names = "--table", paramLabel = "DB.TABLE", required = true,
            description = "the table, as Fluss names it (database.table); tiered into the lake under the same names")
    String table;

    @Option(names = "--fluss", paramLabel = "HOST:PORT",
            description = "the Fluss cluster (a coordinator's address); its lake is --warehouse DIR")
    String fluss;

    @Option(names = "--cluster", paramLabel = "DIR",
            description = "the cluster ./build.sh cluster up runs in DIR (its coordinator and its lake)")
    Path clusterDir;

    @Option(names = "--flink", paramLabel = "HOST:PORT", description = "run the union read on the Flink session"
            + " cluster whose REST endpoint this is (default: an embedded MiniCluster; with --cluster, its own)")
    String flink;

    @Option(names = "--ship-connectors", description = "with --flink: every job takes the Paimon and Fluss"
            + " connectors along (pipeline.jars, loaded child-first), for a Flink cluster without them in its lib/")
    boolean shipConnectors;

    @Option(names = "--warehouse", paramLabel = "DIR|s3://BUCKET/PATH|hdfs://NAMENODE:PORT/PATH|gs://BUCKET/PATH",
            description = "the Paimon warehouse the cluster tiers into (datalake.paimon.warehouse); only read")
    String warehouse;

    @Option(names = "--conf", paramLabel = "FILE", description = "an s3:// warehouse's settings (s3.endpoint,"
            + " s3.access-key, s3.secret-key, …; default: the AWS_* variables of the environment), an hdfs://"
            + " one's (hadoop.KEY=VALUE), or a gs:// one's (hadoop.fs.gs.KEY=VALUE)")
    Path conf;

    @Option(names = "--every", paramLabel = "SECONDS", description = "watch: audit again every SECONDS (1 to"
            + " 3600), printing the tier lag and each verdict as it comes; with --times N, N audits (default: until"
            + " stopped or --timeout-s)")
    Integer every;

    @Option(names = "--times", paramLabel = "N", description = "with --every: how many audits (1 to 100000)")
    Integer times;

    @Option(names = "--partition-rows", paramLabel = "N", defaultValue = "1000000",
            description = "a table whose log holds more than N changes is judged partition by partition, about N"
                    + " rows of each read in memory at a time, the rest spilled to the run's directory (default"
                    + " ${DEFAULT-VALUE})")
    long partitionRows;

    @Option(names = "--report", paramLabel = "FILE.json|FILE.html",
            description = "write the (last) audit's report there (checked writable before anything is read)")
    Path report;

    @Option(names = "--deadline-s", paramLabel = "N",
            description = "the longest any one read may take (default 120)")
    Long deadlineSeconds;

    @Option(names = "--timeout-s", paramLabel = "N",
            description = "the longest the whole run may take (default " + RunOptions.DEFAULT_TIMEOUT_S + ")")
    Long timeoutSeconds;

    @Option(names = "--verbose", description = "print stack traces and engine warnings in full")
    boolean verbose;

    @Override
    public Integer call() {
        RunOptions run = new RunOptions();
        run.deadlineSeconds = deadlineSeconds;
        run.timeoutSeconds = timeoutSeconds;
        run.verbose = verbose;
        Duration deadline = run.deadline(120);
        run.timeout();
        // Every input checked before anything is read.
        String[] parts = TablePaths.pathParts(table);
        if (parts.length != 2) {
            throw new IllegalArgumentException("--table " + table + " is not DATABASE.TABLE");
        }
        if (every != null && (every < 1 || every > 3600)) {
            throw new IllegalArgumentException("--every " + every + " must be between 1 and 3600 seconds");
        }
        if (partitionRows < 1) {
            throw new IllegalArgumentException("--partition-rows " + partitionRows + " must be at least 1");
        }
        if (times != null && (every == null || times < 1 || times > 100_000)) {
            throw new IllegalArgumentException(every == null ? "--times " + times + " needs --every SECONDS"
                    : "--times " + times + " must be between 1 and 100000");
        }
        FlussCluster cluster;
        LakeLocation lake;
        String jobs = flink;
        if (flink != null) {
            HostPort.parse("--flink", flink, "a JobManager's REST endpoint");
        } else if (shipConnectors && clusterDir == null) {
            throw new IllegalArgumentException("--ship-connectors needs --flink HOST:PORT: it is how jobs reach a"
                    + " Flink cluster without the connectors");
        }
        if (clusterDir != null) {
            if (fluss != null || warehouse != null || flink != null || conf != null || shipConnectors) {
                throw new IllegalArgumentException("--cluster " + clusterDir + " names the coordinator, the warehouse"
                        + " (and its settings) and the Flink session cluster: give no --fluss, --warehouse, --conf,"
                        + " --flink or --ship-connectors with it");
            }
            ProcessCluster.State state = ProcessCluster.read(clusterDir).orElseThrow(() ->
                    new IllegalArgumentException("--cluster " + clusterDir + ": no cluster is up there"
                            + " (./build.sh cluster up --dir " + clusterDir + ")"));
            cluster = RemoteFlussCluster.connect(state.fluss(), Duration.ofSeconds(10));
            lake = state.lake();
            jobs = state.hasFlink() ? state.flink() : null;
            shipConnectors = !state.flinkHasConnectors();
        } else {
            if (fluss == null || warehouse == null) {
                throw new IllegalArgumentException("audit needs the cluster: --fluss HOST:PORT and --warehouse DIR"
                        + " (its lake), or --cluster DIR");
            }
            lake = LakeLocation.parse("--warehouse", warehouse, conf, System.getenv());
            if (lake.isLocal() && !Files.isDirectory(lake.directory())) {
                throw new IllegalArgumentException("--warehouse " + warehouse + " is not a directory");
            }
            cluster = RemoteFlussCluster.connect(fluss, Duration.ofSeconds(10))
                    .refuseIfLakeElsewhere(lake, Duration.ofSeconds(30));
        }
        TableAudit.Config cfg = new TableAudit.Config(TablePath.of(parts[0], parts[1]), lake, deadline);
        TableAudit.check(cluster, cfg);
        OutputFile out = OutputFile.check("--report", report, List.of());
        try (RunSession session = RunSession.start("audit", main.runDirectory, run, out, main.err)) {
            main.running(session);
            cfg = cfg.spillingTo(session.directory().directory("spill"), partitionRows);
            main.out.println("tierproof audit: " + cfg.path() + " on the Fluss cluster at " + cluster.bootstrapServers()
                    + ", lake " + lake + " (read-only)");
            Streamhouse servers = Streamhouse.on(session, cluster, jobs, shipConnectors);
            if (every == null) {
                ProofReport result = TableAudit.run(cluster, servers.engine(), cfg, session.steps());
                session.completed();
                return ReportOutput.print(main.out, main.err, result, out, "DDL (Fluss, as the table is)");
            }
            return watch(session, servers, cluster, cfg, out);
        }
    }

    /** Audits every {@code --every} seconds; the exit status is the worst verdict seen. */
    private int watch(RunSession session, Streamhouse servers, FlussCluster cluster, TableAudit.Config cfg,
            OutputFile out) {
        int worst = Main.CONSISTENT;
        ProofReport last = null;
        for (int i = 1; times == null || i <= times; i++) {
            long started = System.nanoTime();
            last = TableAudit.run(cluster, servers.engine(), cfg, session.steps());
            var json = last.json();
            main.out.printf("audit %d: %s, lake snapshot %d, tier lag %d of %d changes%s%n", i,
                    last.consistent() ? "CONSISTENT" : "INCONSISTENT", json.path("lake_snapshot").asLong(),
                    json.path("tier_lag").asLong(), json.path("log_end").asLong(),
                    last.consistent() ? "" : ": " + reason(last));
            worst = last.consistent() ? worst : Main.INCONSISTENT;
            if (times != null && i == times) {
                break;
            }
            long waitMs = every * 1000L - (System.nanoTime() - started) / 1_000_000;
            if (waitMs > 0) {
                session.steps().run("waiting " + every + " s for the next audit", Duration.ofMillis(waitMs + 5_000),
                        control -> {
                            Thread.sleep(waitMs);
                            return null;
                        });
            }
        }
        session.completed();
        if (last != null && out != null && out.write(out.html() ? last.html() : last.toJson() + "\n", main.err)) {
            main.out.println("report           : " + out.path());
        }
        return worst;
    }

    private static String reason(ProofReport r) {
        return r.verdict().reads().stream().filter(x -> !x.consistent()).map(x -> x.name() + " " + x.reason())
                .findFirst().orElseGet(() -> String.join("; ", r.verdict().failures()));
    }
}
