package dev.tierproof.proof;

import dev.tierproof.fluss.BucketLeaders;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.Replication;
import dev.tierproof.fluss.ReplicationWatch;
import dev.tierproof.nemesis.Roles;
import dev.tierproof.nemesis.Target;
import dev.tierproof.nemesis.TieringService;
import dev.tierproof.report.Availability;
import dev.tierproof.report.FaultBand;
import dev.tierproof.report.ProofReport;
import java.time.Duration;
import java.util.List;

/**
 * The proof's write stage under its faults: the workload written while the schedule strikes (each
 * fault's target found by role), then, once every fault has healed, whether the table is served
 * again ({@link Recovery}). On a cluster whose ZooKeeper tierproof knows, a watch samples the
 * leaders and in-sync replicas meanwhile, on the lake watch's clock.
 */
final class FaultedProduction {
    /** How often the replication watch samples leaders and ISRs while faults strike. */
    static final Duration REPLICATION_INTERVAL = Duration.ofMillis(500);

    /**
     * What the write stage came to.
     *
     * @param injected each fault as it struck (and, where a heal had more to say, as it healed)
     * @param bands when each fault held
     * @param availability whether the table was served again, or null where not judged
     */
    record Outcome(Production.Produced produced, List<String> injected, List<FaultBand> bands,
            Availability availability) {
        /** Adds the availability and the fault bands to {@code report}. */
        ProofReport into(ProofReport report) {
            if (availability != null) {
                report.withAvailability(availability);
            }
            if (!bands.isEmpty()) {
                report.withFaultBands(bands);
            }
            return report;
        }
    }

    private FaultedProduction() {}

    static Outcome run(ProofRun run) {
        Duration bound = Recovery.bound(run.cluster().serverSettings());
        try (ReplicationWatch replication = watchReplication(run)) {
            Roles roles = replication == null
                    ? () -> BucketLeaders.leaderOfWritten(run.connection(), run.table().path())
                    : new ReplicaRoles(replication, bound);
            FaultSchedule faults = new FaultSchedule(run.cfg().faults(), new Target(run.cluster(),
                    new TieringService(run.tiering()::restart, run.tiering()::restartWithOtherSettings),
                    run.cfg().warehouse(), run.table().db(), run.table().table(), roles,
                    new AlteredTable(run.connection().getAdmin(), run.table().path(),
                            run.cfg().deadline()), schema(run)),
                    run.steps(), run.watch()::now);
            Production.Produced produced;
            try (faults) {
                produced = run.cfg().producer().produce(run, faults);
            }
            long healedAt = faults.bands().stream().mapToLong(FaultBand::toMillis).max().orElse(run.watch().now());
            Availability availability = replication == null ? null
                    : Recovery.await(replication, bound, run.steps(), run.cfg().deadline(), healedAt);
            return new Outcome(produced, faults.injected(), faults.bands(), availability);
        }
    }

    /** The table's columns as add-column changes them: only where the schedule adds one. */
    private static dev.tierproof.nemesis.TableSchema schema(ProofRun run) {
        return run.cfg().addsColumnAt().isEmpty() ? dev.tierproof.nemesis.TableSchema.NONE
                : new EvolvingTable(run.steps(), run.table().flussBatch(), run.cfg().workload().addedColumn(),
                        run.cfg().deadline());
    }

    /**
     * A watch on the table's leaders and in-sync replicas while a run with faults writes and heals,
     * on a cluster whose ZooKeeper tierproof knows; null otherwise (no faults, or a cluster elsewhere).
     */
    private static ReplicationWatch watchReplication(ProofRun run) {
        FlussCluster cluster = run.cluster();
        if (run.cfg().faults().isEmpty() || cluster.zookeeper().isEmpty()) {
            return null;
        }
        return ReplicationWatch.start(Replication.of(cluster, run.connection(), run.table().path()),
                REPLICATION_INTERVAL, run.watch()::now);
    }
}
