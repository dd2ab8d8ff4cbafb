package dev.tierproof.search;

import dev.tierproof.fluss.Clients;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.proof.FinalRead;
import dev.tierproof.proof.StreamhouseProof;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;

/**
 * The streamhouse search's trials on one lake tiering job, as a deployment runs one tiering
 * service: started by the first trial and kept while trials leave it as they found it. Each
 * trial's table is dropped as the trial ends, so old tables cannot keep the job busy — once tiered
 * to its end, never mid-round (Fluss 0.9.1's tiering reader fails or hangs on a table dropped while
 * it reads it: apache/fluss#2498). A trial whose faults struck the servers or restarted the job
 * with other settings, whose tiering did not finish or whose job failed leaves its job behind: the next trial gets a fresh one, so nothing a
 * trial did to the job is ever judged in another.
 */
final class OneTieringJob implements CounterexampleSearch.Prover {
    /** How long dropping a trial's table may take. */
    static final Duration DROP = Duration.ofSeconds(30);

    private final FlussCluster cluster;
    private final FlinkEngine engine;
    private final Set<FinalRead> reads;
    private final Duration checkpoints;
    private Tiering.Job job;
    private int jobs;

    OneTieringJob(FlussCluster cluster, FlinkEngine engine, Set<FinalRead> reads, Duration checkpoints) {
        this.cluster = cluster;
        this.engine = engine;
        this.reads = reads;
        this.checkpoints = checkpoints;
    }

    @Override
    public ProofReport prove(Workload workload, CounterexampleSearch.Conditions conditions, int proof,
            CounterexampleSearch.Config cfg, Steps steps) {
        try (Workload named = workload.renamed("search_" + proof)) {
            LakeLocation lake = LakeLocation.local(cfg.warehouse());
            StreamhouseProof.Config run = new StreamhouseProof.Config(named, lake, cfg.deadline(), 1000,
                    StreamhouseProof.Producer.CLIENT, Math.min(conditions.rounds(), named.operations()),
                    conditions.faults(), checkpoints, conditions.producerOptions(), FlussCatalog.FLUSS_DATABASE,
                    true, reads).withWriters(conditions.writers());
            TablePath table = TablePath.of(FlussCatalog.FLUSS_DATABASE,
                    StreamhouseProof.tableName(named.table(), FlussCatalog.FLUSS_DATABASE));
            ProofReport report;
            try {
                report = StreamhouseProof.run(cluster, engine, run, steps, job(lake));
            } catch (IllegalArgumentException refused) {
                drop(table); // refused before a write (its table, settings): the job met no row of it
                throw refused;
            } catch (RuntimeException | Error e) {
                afterTrial(null, conditions.faults(), table);
                throw e;
            }
            afterTrial(report, conditions.faults(), table);
            return report;
        }
    }

    private synchronized Tiering.Job job(LakeLocation lake) {
        if (job == null) {
            job = new Tiering.Job(engine, cluster, lake, checkpoints, true);
            jobs++;
        }
        return job;
    }

    /**
     * Keeps the job for the next trial only when this one left it as it found it; drops the
     * trial's table (after the job, when the job goes: no round of it may be under way).
     */
    private synchronized void afterTrial(ProofReport report, List<Fault> faults, TablePath table) {
        boolean keep = job != null && report != null && report.unfinished() == null && job.failure() == null
                && faults.stream().allMatch(f -> f.kind().nemesis().leavesRunAsItWas());
        if (!keep) {
            close();
        }
        drop(table);
    }

    /** Drops the trial's Fluss table, bounded; its lake table stays in the search's warehouse. */
    private void drop(TablePath table) {
        try (Connection connection = Clients.open(cluster.clientConfig())) {
            connection.getAdmin().dropTable(table, true).get(DROP.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // A table left behind costs the job a little work, never a verdict: the next trial's is its own.
            System.err.println("tierproof: could not drop " + table + " after its trial: " + e.getMessage());
        }
    }

    /** How many tiering jobs the trials ran on so far (a fault's restart of one in place not counted). */
    synchronized int jobs() {
        return jobs;
    }

    @Override
    public synchronized void close() {
        if (job != null) {
            try {
                job.stop(); // gone before the trial's table is dropped: a tiering reader hangs on a dropped table
            } finally {
                job = null; // never run a trial on a job that was cancelled
            }
        }
    }
}
