package dev.tierproof.proof;

import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.flink.Statements;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.paimon.PaimonStreamReplay;
import dev.tierproof.run.Reading;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The proof's reading and judging stage: every read of the tiered table, planned in the order the
 * verdict judges them and run side by side — first all that need nothing of another, then those
 * bounded by another's result — and the core's verdict over them.
 */
final class FinalReads {
    /** The verdict, how each read was bounded (or why it did not run), and the reads that failed. */
    record Judged(Verdict verdict, Map<String, String> bounds, List<String> failedReads) {}

    private static final String EXPIRED = "not run: it replays the lake's snapshots from the first, and the run's"
            + " expire-lake expired all but the latest";
    private static final String NOT_RUN = "not run: tiering did not catch up, so there is no count of the"
            + " source's own to stop at";
    private static final String NOT_PICKED = "not run: not among --reads";

    private final ProofRun run;
    private final Quiescence.Tiered tiered;
    private final Reading reading;
    private final Map<String, String> bounds;
    private final List<Reading.Planned> first = new ArrayList<>();
    private final String all;

    private FinalReads(ProofRun run, Quiescence.Tiered tiered, Workload.Reads reads, Map<String, String> bounds,
            List<String> failedReads) {
        this.run = run;
        this.tiered = tiered;
        this.bounds = bounds;
        this.reading = new Reading(run.steps(), reads, BoundedRead.GRACE, run.timings(), bounds, run.failures(),
                failedReads);
        this.all = run.cfg().workload().selectAll(Map.of());
        for (FinalRead read : FinalRead.values()) {
            if (read != FinalRead.VIEWS && !picked(read)) {
                bounds.put(read.id(), NOT_PICKED);
            }
        }
    }

    /** Reads the table every way, then judges the reads against the workload. */
    static Judged run(ProofRun run, Quiescence.Tiered tiered) {
        Map<String, String> bounds = new LinkedHashMap<>();
        List<String> failedReads = new ArrayList<>();
        // Writes whose acknowledgement was lost may or may not have taken effect, rejected ones should
        // not have: judged so.
        Workload uncertain = run.marked(run.cfg().workload(), run.cfg().workload().operations());
        try (uncertain; Workload.Reads reads = (uncertain != null ? uncertain : run.cfg().workload()).reads()) {
            if (run.cfg().history() != null) {
                reads.tap(run.cfg().history().taps());
            }
            new FinalReads(run, tiered, reads, bounds, failedReads).readAll();
            long t = System.nanoTime();
            Verdict verdict = reads.judge(run.failures());
            run.timings().put("judge", Statements.millisSince(t));
            run.timings().put("fold", verdict.foldMillis());
            return new Judged(verdict, inJudgingOrder(bounds), failedReads);
        }
    }

    /** The bounds of the table's reads in judging order, run or not, then the views'. */
    private static Map<String, String> inJudgingOrder(Map<String, String> bounds) {
        Map<String, String> out = new LinkedHashMap<>();
        FinalRead.tableReads().stream().filter(bounds::containsKey).forEach(name -> out.put(name, bounds.get(name)));
        out.putAll(bounds);
        return out;
    }

    private void readAll() {
        TableEnvironment paimonBatch = StreamhouseTable.paimon(run.engine().batchTables(), run.cfg().warehouse(),
                run.cfg().database());
        Reading.Planned lake = !picked(FinalRead.PAIMON_BATCH) ? null : plan(first, reading.plan(
                "paimon_batch", Workload.Source.SNAPSHOT,
                () -> Reading.Bound.endsByItself("a batch query ends by itself"),
                (lane, sink) -> BoundedRead.collect(lane, paimonBatch, all, sink, run.cfg().deadline())));
        planLakeReplays();
        Reading.Planned full = planFlussStreaming(lake);
        Reading.Planned union = !picked(FinalRead.FLUSS_UNION) ? null : plan(first, reading.plan(
                "fluss_union", Workload.Source.SNAPSHOT,
                () -> Reading.Bound.endsByItself("a batch union read (lake snapshot + log) ends by itself"),
                (lane, sink) -> BoundedRead.collect(lane, run.table().flussBatch(), all, sink, run.cfg().deadline())));
        List<Reading.Planned> unionViews = picked(FinalRead.VIEWS) ? planViews(paimonBatch) : List.of();
        long readsStart = System.nanoTime();
        List<Reading.Follower> followers = new ArrayList<>();
        if (full != null && lake == null) {
            reading.notRun(full, "not run: it is bounded by the lake's row count, and the lake was not read");
        } else if (full != null) {
            followers.add(new Reading.Follower(full, lake, "not run: it is bounded by the lake's row count, and the"
                    + " lake read failed"));
        }
        for (Reading.Planned v : unionViews) {
            if (union != null) {
                followers.add(new Reading.Follower(v, union, "not run: the union read did not end"));
            } else {
                reading.notRun(v, "not run: the union read did not end");
            }
        }
        reading.together(first, followers);
        run.timings().put("reads", Statements.millisSince(readsStart));
    }

    /** Whether {@code --reads} picked the read (the bound of one it did not says so from the start). */
    private boolean picked(FinalRead read) {
        return run.cfg().reads().contains(read);
    }

    private static Reading.Planned plan(List<Reading.Planned> group, Reading.Planned read) {
        group.add(read);
        return read;
    }

    /** The lake's changelog: Flink's streaming read (bounded by the log's count) and Paimon's own stream scan. */
    private void planLakeReplays() {
        long logChanges = tiered.logChanges();
        if (run.cfg().expiresLakeHistory()) {
            // The run's own expire-lake removed the snapshots these replay from: nothing for them to judge.
            for (FinalRead replay : List.of(FinalRead.PAIMON_STREAMING, FinalRead.PAIMON_REPLAY)) {
                if (picked(replay)) {
                    bounds.put(replay.id(), EXPIRED);
                }
            }
            return;
        }
        if (picked(FinalRead.PAIMON_STREAMING) && tiered.unfinishedTiering()) {
            bounds.put("paimon_streaming", NOT_RUN);
        } else if (picked(FinalRead.PAIMON_STREAMING)) {
            TableEnvironment paimonStreaming = StreamhouseTable.paimon(run.engine().streamingTables(),
                    run.cfg().warehouse(), run.cfg().database());
            String replay = run.cfg().workload().selectAll(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id",
                    "1", "continuous.discovery-interval", "100ms"));
            first.add(reading.plan("paimon_streaming", Workload.Source.REPLAY, () -> new Reading.Bound(
                    "stopped after the log's " + logChanges + " changes (the sum of the tiered log end offsets)",
                    logChanges), (lane, sink) -> BoundedRead.collect(lane, paimonStreaming, replay, sink,
                            run.cfg().deadline(), logChanges)));
        }
        if (picked(FinalRead.PAIMON_REPLAY)) {
            String db = run.table().db();
            String table = run.table().table();
            first.add(reading.plan("paimon_replay", Workload.Source.REPLAY,
                    () -> Reading.Bound.endsByItself("Paimon's stream scan up to the latest snapshot"),
                    (lane, sink) -> PaimonStreamReplay.replay(lane, run.cfg().warehouse(), db, table, sink,
                            run.cfg().workload().columns(), run.cfg().deadline())));
        }
    }

    /**
     * Fluss's streaming reads: its log from the earliest offset (bounded by the log's count) and
     * its {@code full} startup (bounded by the lake's row count, so it starts once the lake read has
     * ended). The latter, or null when tiering stalled or it was not picked.
     */
    private Reading.Planned planFlussStreaming(Reading.Planned lake) {
        boolean changelog = picked(FinalRead.FLUSS_CHANGELOG);
        boolean fullStartup = picked(FinalRead.FLUSS_FULL);
        if (tiered.unfinishedTiering()) {
            if (changelog) {
                bounds.put("fluss_changelog", NOT_RUN);
            }
            if (fullStartup) {
                bounds.put("fluss_full", NOT_RUN);
            }
            return null;
        }
        long logChanges = tiered.logChanges();
        TableEnvironment flussStreaming = StreamhouseTable.utc(FlussCatalog.register(run.engine().streamingTables(),
                run.cluster(), run.cfg().warehouse(), run.table().db()));
        if (changelog) {
            String earliest = run.cfg().workload().selectAll(Map.of("scan.startup.mode", "earliest"));
            first.add(reading.plan("fluss_changelog", Workload.Source.LOG, () -> new Reading.Bound(
                    "scan.startup.mode=earliest, stopped at the log end offsets: " + logChanges + " changes",
                    logChanges), (lane, sink) -> BoundedRead.collect(lane, flussStreaming, earliest, sink,
                            run.cfg().deadline(), logChanges)));
        }
        if (!fullStartup) {
            return null;
        }
        String fullSql = run.cfg().workload().selectAll(Map.of("scan.startup.mode", "full"));
        Reading.Planned full = reading.plan("fluss_full", Workload.Source.SNAPSHOT, () -> new Reading.Bound(
                "scan.startup.mode=full (lake snapshot + empty log tail), stopped after the lake's "
                        + lake.buffer().size() + " rows", lake.buffer().size()),
                (lane, sink) -> BoundedRead.collect(lane, flussStreaming, fullSql, sink, run.cfg().deadline(),
                        lake.buffer().size()));
        return full;
    }

    /**
     * COUNT(*), filters and a projection are reads too: of the lake (planned now), and of the
     * union read once that one has ended, else they would wait as it did (returned).
     */
    private List<Reading.Planned> planViews(TableEnvironment paimonBatch) {
        List<Reading.Planned> unionViews = new ArrayList<>();
        List<Workload.ViewQuery> views = run.cfg().workload().viewQueries();
        for (int i = 0; i < views.size(); i++) {
            Workload.ViewQuery v = views.get(i);
            first.add(reading.planView(i, "lake_" + v.name(), v.sql(), (lane, sink) -> BoundedRead.collect(
                    lane, paimonBatch, v.sql(), sink, run.cfg().deadline())));
            unionViews.add(reading.planView(i, "union_" + v.name(), v.sql(), (lane, sink) ->
                    BoundedRead.collect(lane, run.table().flussBatch(), v.sql(), sink, run.cfg().deadline())));
        }
        return unionViews;
    }
}
