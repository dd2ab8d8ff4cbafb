package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import java.util.stream.IntStream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.exception.RetriableException;
import org.apache.fluss.flink.tiering.LakeTieringJobBuilder;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/** Fluss's lake tiering job, run on the shared MiniCluster, and the wait for it to quiesce. */
public final class Tiering implements AutoCloseable {
    private final JobClient job;
    /** Its cancellation asked for (and acknowledged), or it had ended by itself. */
    private boolean cancelled;
    /** It has ended: nothing of it runs. */
    private boolean gone;

    private Tiering(JobClient job) {
        this.job = job;
    }

    /** The datalake options a Fluss cluster needs to tier into a Paimon filesystem warehouse. */
    public static Map<String, String> clusterOptions(Path warehouse) {
        return LakeLocation.local(warehouse).flussClusterOptions();
    }

    /**
     * Starts the tiering job as Fluss's entry point runs it (no checkpointing: Flink's restart
     * strategy is then {@code none}); it polls Fluss for tables to tier every {@code pollInterval}.
     */
    public static Tiering start(FlinkEngine engine, FlussCluster cluster, Path warehouse, Duration pollInterval) {
        return start(engine, cluster, LakeLocation.local(warehouse), pollInterval, null);
    }

    /**
     * As above, with Flink checkpoints every {@code checkpoints} (null: none). With checkpoints
     * Flink restarts a failed job (its default then: exponential delay), which a user can choose
     * with {@code -Dexecution.checkpointing.interval=…}.
     */
    public static Tiering start(FlinkEngine engine, FlussCluster cluster, LakeLocation warehouse,
            Duration pollInterval, Duration checkpoints) {
        Configuration flussConf = cluster.clientConfig();
        flussConf.setString("tiering.poll.table.interval", pollInterval.toMillis() + "ms");
        Configuration lakeConf = new Configuration();
        lakeConf.setString("metastore", "filesystem");
        // As users run it: the store's own retries (tierproof's bounds are for its own steps).
        warehouse.deploymentOptions().forEach(lakeConf::setString);
        try {
            var env = engine.streamEnvironment();
            if (checkpoints != null) {
                env.enableCheckpointing(checkpoints.toMillis());
            }
            return new Tiering(LakeTieringJobBuilder.newBuilder(env, flussConf, lakeConf, new Configuration(), "paimon")
                    .build());
        } catch (Exception e) {
            throw new TierproofException("could not start Fluss's lake tiering job: " + e.getMessage(), e);
        }
    }

    /**
     * How long tiering may go without any bucket's lake offset moving before it is STALLED, for a
     * table whose freshness (its {@code table.datalake.freshness}) is {@code freshness}: 30 s plus
     * ten freshness intervals, or twice the slowest round of tiering this run saw
     * ({@link LakeWatch#slowestRound}), whichever is longer: a loaded machine's slow rounds are slow,
     * not stalled.
     */
    public static Duration stallWindow(Duration freshness, Duration slowestRound) {
        Duration base = Duration.ofSeconds(30).plus(freshness.multipliedBy(10));
        Duration twice = slowestRound.multipliedBy(2);
        return twice.compareTo(base) > 0 ? twice : base;
    }

    /** How long the wait for tiering may last in all: a little less than its step's {@code deadline}, so it ends as a verdict. */
    public static Duration waitBound(Duration deadline) {
        return deadline.compareTo(Duration.ofSeconds(4)) > 0 ? deadline.minusSeconds(2) : deadline.dividedBy(2);
    }

    /** Said with every wait that runs out: the known reason a bucket's lake offset stays behind. */
    public static final String NO_CHANGE_NOTE = " (if a bucket's last writes changed nothing — a delete of an absent key, a"
            + " first_row or versioned write that lost — Fluss 0.9.1 logs an empty batch there that tiering never"
            + " reports: docs/findings/fluss-0.9-no-change-write-lag.md)";

    /**
     * Where tiering stood when it caught up with the log.
     *
     * @param logEndOffset the sum of every bucket's log end offset (of every partition): how many
     *     changes the log holds, and so how many a full replay of it delivers
     * @param buckets how many buckets (over all partitions) hold any change
     */
    public record Quiesced(long logEndOffset, long lakeSnapshotId, long waitedMillis, int buckets) {}

    /**
     * Waits until the lake snapshot's offset of every bucket (of every partition) has reached
     * that bucket's log end offset: every record written to Fluss is then in Paimon. The log end
     * offsets are read once, at the start: the caller has stopped writing. Throws
     * {@link TieringUnfinished} when that does not come within {@code deadline}.
     */
    public static Quiesced awaitQuiesced(Admin admin, TablePath path, Duration deadline) {
        return awaitQuiesced(admin, path, deadline, deadline, () -> null, new AtomicReference<>());
    }

    /**
     * As above, for at most {@code bound} in all; STALLED as soon as no bucket's lake offset has
     * moved for {@code window} or the tiering job failed ({@code jobFailure}: why, or null while it
     * runs), LAGGING when {@code bound} runs out while they still move. {@code seen} holds where
     * tiering stands (for a message if the wait is cut off).
     */
    public static Quiesced awaitQuiesced(Admin admin, TablePath path, Duration window, Duration bound,
            Supplier<String> jobFailure, AtomicReference<String> seen) {
        try {
            return awaitLake(logEndOffsets(admin, path), () -> latestLakeSnapshot(admin, path), window, bound,
                    Duration.ofMillis(200), jobFailure, seen);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while waiting for tiering", e);
        } catch (ExecutionException e) {
            throw new TierproofException("could not read offsets of " + path + ": " + e.getCause(), e);
        }
    }

    /** How often a wait in which nothing moves asks whether the tiering job has failed. */
    private static final Duration ASK_JOB = Duration.ofSeconds(1);

    /** One look at the lake: its latest snapshot, or null before the first. */
    interface LakeLook {
        LakeSnapshot latest() throws InterruptedException, ExecutionException;
    }

    /**
     * The wait itself, on the log end offsets read once ({@code logEnds}) and a look at the lake
     * every {@code interval}: caught up, or {@link TieringUnfinished} (STALLED or LAGGING).
     */
    static Quiesced awaitLake(Map<TableBucket, Long> logEnds, LakeLook look, Duration window, Duration bound,
            Duration interval, Supplier<String> jobFailure, AtomicReference<String> seen)
            throws InterruptedException, ExecutionException {
        long start = System.nanoTime();
        long end = start + bound.toNanos();
        long total = logEnds.values().stream().mapToLong(Long::longValue).sum();
        int nonEmpty = (int) logEnds.values().stream().filter(o -> o > 0).count();
        seen.set("the log holds " + total + " changes in " + logEnds.size() + " bucket(s); no lake snapshot yet");
        TieringProgress progress = null;
        long askedAt = start;
        while (System.nanoTime() < end) {
            LakeSnapshot snapshot = look.latest();
            long now = System.nanoTime();
            if (total == 0) {
                return new Quiesced(0, snapshot == null ? -1 : snapshot.getSnapshotId(), (now - start) / 1_000_000, 0);
            }
            Map<TableBucket, Long> lake = snapshot == null ? Map.of() : snapshot.getTableBucketsOffset();
            List<String> behind = new ArrayList<>();
            long tiered = 0;
            for (Map.Entry<TableBucket, Long> e : logEnds.entrySet()) {
                long at = Math.min(lake.getOrDefault(e.getKey(), 0L), e.getValue());
                tiered += at;
                if (at < e.getValue()) {
                    behind.add(e.getKey() + " at " + at + " of " + e.getValue());
                }
            }
            if (snapshot != null && behind.isEmpty()) {
                return new Quiesced(total, snapshot.getSnapshotId(), (now - start) / 1_000_000, nonEmpty);
            }
            progress = progress == null ? TieringProgress.firstLook(tiered, now) : progress.at(tiered, now);
            if (snapshot != null) {
                seen.set("the log holds " + total + " changes in " + logEnds.size() + " bucket(s); lake snapshot "
                        + snapshot.getSnapshotId() + " has " + behind.size() + " bucket(s) behind: "
                        + String.join(", ", behind.subList(0, Math.min(6, behind.size()))));
            }
            // Asked at most once a second, while nothing moves: a failed job never tiers again.
            if (progress.still(now).compareTo(ASK_JOB) >= 0 && now - askedAt >= ASK_JOB.toNanos()) {
                askedAt = now;
                String failed = jobFailure.get();
                if (failed != null) {
                    throw new TieringUnfinished(TieringProgress.stalled("since " + failed + " (it is not restarted:"
                            + " nothing tiers the table any more)", seen.get()), total);
                }
            }
            if (progress.still(now).compareTo(window) > 0) {
                throw new TieringUnfinished(TieringProgress.stalled("in " + TieringProgress.seconds(window) + " (the"
                        + " stall window: 30 s and ten freshness intervals, or twice the slowest tiering round seen)",
                        seen.get()), total);
            }
            Thread.sleep(interval.toMillis());
        }
        throw new TieringUnfinished(progress != null && progress.moved()
                ? progress.lagging(total, System.nanoTime(), seen.get())
                : TieringProgress.stalled("in the wait's " + TieringProgress.seconds(bound), seen.get()), total);
    }

    /**
     * A bucket without a leader, as Fluss 0.9 says it: a leader that moved answers with a
     * {@link RetriableException} (by Fluss's own definition, worth asking again); a bucket whose
     * metadata has no leader yet makes the client's {@code MetadataUpdater.leaderFor} throw, before
     * any request, a plain {@link FlussRuntimeException} "Leader not found after retry…".
     */
    static boolean noLeaderYet(Exception e) {
        if (e instanceof ExecutionException) {
            return e.getCause() instanceof RetriableException;
        }
        return e instanceof FlussRuntimeException && String.valueOf(e.getMessage()).startsWith("Leader not found");
    }

    /** Every bucket's log end offset, of every partition of a partitioned table. */
    static Map<TableBucket, Long> logEndOffsets(Admin admin, TablePath path)
            throws InterruptedException, ExecutionException {
        try {
            return logEndOffsets(admin, path, Duration.ofSeconds(30));
        } catch (TimeoutException e) {
            throw new ExecutionException("no answer within 30 s", e);
        }
    }

    /** As above, each request answered within {@code timeout} or a {@link TimeoutException}. */
    static Map<TableBucket, Long> logEndOffsets(Admin admin, TablePath path, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        return logOffsets(admin, path, new OffsetSpec.LatestSpec(), timeout);
    }

    /**
     * Every bucket's offset of {@code spec} (the log's start, its end), of every partition of a
     * partitioned table; each request answered within {@code timeout} or a {@link TimeoutException}.
     */
    public static Map<TableBucket, Long> logOffsets(Admin admin, TablePath path, OffsetSpec spec, Duration timeout)
            throws InterruptedException, ExecutionException, TimeoutException {
        // A bucket without a leader yet (a table just created, a leader moving) says nothing of the
        // data: every reader waits it out, within the same bound.
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            try {
                return logOffsetsOnce(admin, path, spec, timeout);
            } catch (ExecutionException | FlussRuntimeException e) {
                if (!noLeaderYet(e) || System.nanoTime() > end) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private static Map<TableBucket, Long> logOffsetsOnce(Admin admin, TablePath path, OffsetSpec spec,
            Duration timeout) throws InterruptedException, ExecutionException, TimeoutException {
        long ms = timeout.toMillis();
        TableInfo info = admin.getTableInfo(path).get(ms, TimeUnit.MILLISECONDS);
        List<Integer> buckets = IntStream.range(0, info.getNumBuckets()).boxed().toList();
        Map<TableBucket, Long> ends = new HashMap<>();
        if (!info.isPartitioned()) {
            admin.listOffsets(path, buckets, spec).all().get(ms, TimeUnit.MILLISECONDS)
                    .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), b), o));
            return ends;
        }
        for (PartitionInfo p : admin.listPartitionInfos(path).get(ms, TimeUnit.MILLISECONDS)) {
            admin.listOffsets(path, p.getPartitionName(), buckets, spec).all()
                    .get(ms, TimeUnit.MILLISECONDS)
                    .forEach((b, o) -> ends.put(new TableBucket(info.getTableId(), p.getPartitionId(), b), o));
        }
        return ends;
    }

    private static LakeSnapshot latestLakeSnapshot(Admin admin, TablePath path)
            throws InterruptedException, ExecutionException {
        try {
            return LakeSnapshotRace.ask(() -> admin.getLatestLakeSnapshot(path), TimeUnit.SECONDS.toMillis(30));
        } catch (TimeoutException e) {
            throw new ExecutionException("no answer within 30 s", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return null; // nothing tiered yet
            }
            throw e;
        }
    }

    /**
     * Why the tiering job has failed, or null while it runs (or ended otherwise). Run as Fluss
     * documents it, it has no restart strategy: a failure ends it and tiering stops for every table.
     */
    public synchronized String failure() {
        try {
            if (job.getJobStatus().get(10, TimeUnit.SECONDS) != JobStatus.FAILED) {
                return null;
            }
            job.getJobExecutionResult().get(10, TimeUnit.SECONDS);
            return "the lake tiering job failed";
        } catch (ExecutionException e) {
            return "the lake tiering job failed: " + Steps.rootMessage(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (TimeoutException e) {
            return null; // no answer: say nothing rather than guess
        }
    }

    /**
     * Cancels the job without waiting for its tasks to end, as {@code flink cancel} does: the engine
     * finishes it (a MiniCluster waits for it as it closes). Its tasks take seconds to end (each
     * closes Fluss connections, each waiting out Netty's quiet period), which nothing after a proof
     * needs to wait for. A job that already ended is left as it is.
     */
    @Override
    public synchronized void close() {
        end(false);
    }

    /** Cancels the job and waits (bounded) until it is gone: before another job starts in its place. */
    public synchronized void stop() {
        end(true);
    }

    private void end(boolean awaitGone) {
        if (gone || cancelled && !awaitGone) {
            return;
        }
        try {
            if (!cancelled && !job.getJobStatus().get(10, TimeUnit.SECONDS).isGloballyTerminalState()) {
                job.cancel().get(30, TimeUnit.SECONDS);
            }
            cancelled = true;
            if (awaitGone) {
                job.getJobExecutionResult().handle((r, e) -> null).get(30, TimeUnit.SECONDS);
                gone = true;
            }
        } catch (Exception e) {
            throw new TierproofException("could not stop the tiering job: " + e, e);
        }
    }

    /**
     * The lake tiering job of one proof, which a fault may cancel and start again; or none of
     * tierproof's, when the cluster's own tiering service tiers the table.
     */
    public static final class Job implements AutoCloseable {
        /** The other settings a restart with other settings takes (see {@link #restartWithOtherSettings}). */
        static final Duration OTHER_CHECKPOINTS = Duration.ofSeconds(2);
        static final Duration OTHER_POLL = Duration.ofSeconds(2);

        private final FlinkEngine engine;
        private final FlussCluster cluster;
        private final LakeLocation warehouse;
        private Duration checkpoints;
        private Duration poll = FlussCatalog.TIERING_POLL;
        /** null: the cluster's own tiering service tiers the table (nothing to watch, restart or stop). */
        private Tiering current;

        public Job(FlinkEngine engine, FlussCluster cluster, LakeLocation warehouse, Duration checkpoints,
                boolean own) {
            this.engine = engine;
            this.cluster = cluster;
            this.warehouse = warehouse;
            this.checkpoints = checkpoints;
            this.current = own ? start(engine, cluster, warehouse, poll, checkpoints) : null;
        }

        /** Why the running tiering job failed, or null. */
        public synchronized String failure() {
            return current == null ? null : current.failure();
        }

        public synchronized void restart() {
            restartAs(checkpoints, poll);
        }

        /**
         * Restarts it as an operator redeploys the tiering service with other settings: Flink
         * checkpoints every 2 s where it had none (none where it had them), and Fluss polled for
         * tables every 2 s where it was every 500 ms (500 ms where it was another). Says what changed.
         */
        public synchronized String restartWithOtherSettings() {
            Duration otherCheckpoints = checkpoints == null ? OTHER_CHECKPOINTS : null;
            Duration otherPoll = poll.equals(FlussCatalog.TIERING_POLL) ? OTHER_POLL : FlussCatalog.TIERING_POLL;
            String said = "checkpoints " + every(checkpoints) + " -> " + every(otherCheckpoints)
                    + ", tables polled every " + poll.toMillis() + " ms -> " + otherPoll.toMillis() + " ms";
            restartAs(otherCheckpoints, otherPoll);
            return said;
        }

        private void restartAs(Duration newCheckpoints, Duration newPoll) {
            if (current == null) {
                throw new IllegalStateException("no tiering job of tierproof's to restart");
            }
            current.stop();
            current = start(engine, cluster, warehouse, newPoll, newCheckpoints);
            checkpoints = newCheckpoints;
            poll = newPoll;
        }

        private static String every(Duration checkpoints) {
            return checkpoints == null ? "none" : "every " + checkpoints.toMillis() + " ms";
        }

        /** Cancels the running job without waiting for it to end (see {@link Tiering#close}). */
        @Override
        public synchronized void close() {
            if (current != null) {
                current.close();
            }
        }

        /** Cancels the running job and waits until it is gone (see {@link Tiering#stop}). */
        public synchronized void stop() {
            if (current != null) {
                current.stop();
            }
        }
    }
}
