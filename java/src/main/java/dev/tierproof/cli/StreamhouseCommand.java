package dev.tierproof.cli;

import dev.tierproof.core.Rows;
import dev.tierproof.fluss.LocalFlussCluster;
import dev.tierproof.fluss.StreamhouseProof;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.paimon.FlinkEngine;
import dev.tierproof.paimon.ProofReport;
import dev.tierproof.paimon.Progress;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * {@code tierproof streamhouse}: a real Fluss cluster tiering into Paimon, every read compared.
 * Whatever happens (a failure, Ctrl-C), the tiering job, the Flink MiniCluster and the Fluss
 * cluster are stopped and a temporary warehouse is removed.
 */
final class StreamhouseCommand {
    private static final Set<String> OPTIONS = Set.of(
            "table", "upserts", "random", "keys", "seed", "warehouse", "report", "deadline-s", "rows-per-insert");

    /** Up to this many upserts run as one INSERT each (each is a Flink job of about 2.5 s). */
    static final int PER_UPSERT_LIMIT = 20;

    private StreamhouseCommand() {}

    static int run(List<String> words, PrintStream out, PrintStream err) {
        Args args = Args.parse(words, OPTIONS);
        Rows upserts = Workload.from(args);
        int rowsPerInsert = args.intValue("rows-per-insert", upserts.size() <= PER_UPSERT_LIMIT ? 1 : 2000);
        if (rowsPerInsert < 1) {
            throw new IllegalArgumentException("--rows-per-insert " + rowsPerInsert + " must be at least 1");
        }
        Duration deadline = Duration.ofSeconds(args.longValue("deadline-s", 120, 1, 86_400));
        Progress progress = Progress.to(err);
        Resources resources = new Resources(Warehouse.of(args));
        Thread onInterrupt = new Thread(() -> {
            err.println("tierproof: interrupted; stopping the tiering job, Flink and the Fluss cluster");
            resources.close();
        }, "tierproof-shutdown");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        try {
            out.println("tierproof streamhouse: " + Workload.describe(args, upserts) + ", Paimon warehouse "
                    + resources.warehouse.describe());
            progress.step("starting Fluss (ZooKeeper, coordinator, tablet server) with a Paimon datalake");
            resources.cluster = LocalFlussCluster.start(1, Tiering.clusterOptions(resources.warehouse.path()));
            progress.step("Fluss is up at " + resources.cluster.bootstrapServers() + "; starting Flink MiniCluster");
            resources.engine = FlinkEngine.start(8);
            ProofReport report = StreamhouseProof.run(resources.cluster, resources.engine,
                    new StreamhouseProof.Config(args.get("table", "accounts"), upserts, resources.warehouse.path(),
                            deadline, rowsPerInsert), progress);
            return ReportOutput.print(out, report, args, "DDL (Fluss)", o -> {
                o.printf("tiered into      : Paimon %s.%s in %s, columns %s%n",
                        report.json().path("paimon").path("database").asText(),
                        report.json().path("paimon").path("table").asText(),
                        report.json().path("paimon").path("warehouse").asText(),
                        report.json().path("paimon").path("columns"));
                o.printf("tiering          : log end offset %d, lake snapshot %d, caught up in %d ms%n",
                        report.json().path("fluss").path("log_end_offset").asLong(),
                        report.json().path("fluss").path("lake_snapshot_id").asLong(),
                        report.json().path("tiering_wait_ms").asLong());
            });
        } finally {
            progress.step("stopping Flink and the Fluss cluster");
            resources.close();
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already going down: the hook runs (and finds everything closed)
            }
        }
    }

    /** What the command started, stopped once, in reverse order. */
    private static final class Resources {
        final Warehouse warehouse;
        volatile LocalFlussCluster cluster;
        volatile FlinkEngine engine;
        private boolean closed;

        Resources(Warehouse warehouse) {
            this.warehouse = warehouse;
        }

        synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            RuntimeException first = null;
            for (AutoCloseable c : new AutoCloseable[] {engine, cluster, warehouse}) {
                try {
                    if (c != null) {
                        c.close();
                    }
                } catch (Exception e) {
                    first = first == null ? new RuntimeException(e.getMessage(), e) : first;
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }
}
