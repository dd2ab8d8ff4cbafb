package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.flink.FlinkEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.flink.tiering.LakeTieringJobBuilder;
import org.apache.fluss.metadata.TablePath;

/** Fluss's lake tiering job, run on the shared MiniCluster, and the wait for it to quiesce. */
public final class Tiering implements AutoCloseable {
    private final JobClient job;
    private boolean closed;

    private Tiering(JobClient job) {
        this.job = job;
    }

    /** The datalake options a Fluss cluster needs to tier into a Paimon filesystem warehouse. */
    public static Map<String, String> clusterOptions(Path warehouse) {
        return Map.of(
                "datalake.format", "paimon",
                "datalake.paimon.metastore", "filesystem",
                "datalake.paimon.warehouse", warehouse.toAbsolutePath().toString());
    }

    /** Starts the tiering job; it polls Fluss for tables to tier every {@code pollInterval}. */
    public static Tiering start(FlinkEngine engine, LocalFlussCluster cluster, Path warehouse, Duration pollInterval) {
        Configuration flussConf = cluster.clientConfig();
        flussConf.setString("tiering.poll.table.interval", pollInterval.toMillis() + "ms");
        Configuration lakeConf = new Configuration();
        lakeConf.setString("metastore", "filesystem");
        lakeConf.setString("warehouse", warehouse.toAbsolutePath().toString());
        try {
            return new Tiering(LakeTieringJobBuilder.newBuilder(
                            engine.streamEnvironment(), flussConf, lakeConf, new Configuration(), "paimon")
                    .build());
        } catch (Exception e) {
            throw new TierproofException("could not start Fluss's lake tiering job: " + e.getMessage(), e);
        }
    }

    /** Where tiering stood when it caught up with the log. */
    public record Quiesced(long logEndOffset, long lakeSnapshotId, long waitedMillis) {}

    /**
     * Waits until the lake snapshot's offset of bucket 0 has reached the log end offset: every
     * record written to Fluss is then in Paimon.
     */
    public static Quiesced awaitQuiesced(Admin admin, TablePath path, Duration deadline) {
        long start = System.nanoTime();
        long end = start + deadline.toNanos();
        try {
            long logEnd = admin.listOffsets(path, List.of(0), new OffsetSpec.LatestSpec()).bucketResult(0).get();
            String seen = "no lake snapshot yet";
            while (System.nanoTime() < end) {
                LakeSnapshot snapshot = latestLakeSnapshot(admin, path);
                if (snapshot != null) {
                    long lake = bucketZeroOffset(snapshot);
                    if (lake >= logEnd) {
                        return new Quiesced(logEnd, snapshot.getSnapshotId(), (System.nanoTime() - start) / 1_000_000);
                    }
                    seen = "lake snapshot " + snapshot.getSnapshotId() + " at offset " + lake;
                }
                Thread.sleep(200);
            }
            throw new TierproofException("tiering did not catch up within " + deadline.toSeconds()
                    + " s: the log ends at offset " + logEnd + ", " + seen);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while waiting for tiering", e);
        } catch (ExecutionException e) {
            throw new TierproofException("could not read offsets of " + path + ": " + e.getCause(), e);
        }
    }

    private static LakeSnapshot latestLakeSnapshot(Admin admin, TablePath path)
            throws InterruptedException, ExecutionException {
        try {
            return admin.getLatestLakeSnapshot(path).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return null; // nothing tiered yet
            }
            throw e;
        }
    }

    private static long bucketZeroOffset(LakeSnapshot snapshot) {
        return snapshot.getTableBucketsOffset().entrySet().stream()
                .filter(e -> e.getKey().getBucket() == 0)
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(-1L);
    }

    /** Cancels the job and waits (bounded) for it to go down. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            job.cancel().get(30, TimeUnit.SECONDS);
            job.getJobExecutionResult().handle((r, e) -> null).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new TierproofException("could not stop the tiering job: " + e, e);
        }
    }
}
