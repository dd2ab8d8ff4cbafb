package dev.tierproof.proof;

import dev.tierproof.core.Workload;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.fluss.LakeWatch;
import dev.tierproof.fluss.TieringUnfinished;
import dev.tierproof.report.ProofReport.Checkpoint.Kind;
import dev.tierproof.report.ProofReport;
import dev.tierproof.report.Unfinished;
import dev.tierproof.run.Reading;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;

/** The checks between two rounds of writes: the union read while the lake lags, and a checkpoint once it has caught up. */
final class RoundChecks {
    static final String BATCH_BEFORE_SNAPSHOT = "docs/findings/fluss-0.9-batch-union-read-before-first-snapshot.md";

    private RoundChecks() {}

    /**
     * A live check between rounds, before tiering catches up: the union read (the lake's latest
     * snapshot merged with the log tail above its offsets) must already hold what every write so
     * far makes of the table — the promise while the lake lags, not only once it has caught up.
     * Not taken (a note says so) before the table has a readable lake snapshot: Fluss 0.9.1's
     * batch union read fails until then, a finding of its own (apache/fluss#3207).
     */
    static ProofReport.Checkpoint liveUnion(ProofRun run, int round, int written, List<String> notes) {
        LakeWatch watch = run.watch();
        watch.poll();
        if (watch.cuts().isEmpty()) {
            notes.add("no union read after round " + round + ": no readable lake snapshot yet, and Fluss 0.9.1's"
                    + " batch union read fails until there is one (apache/fluss#3207: " + BATCH_BEFORE_SNAPSHOT + ")");
            return null;
        }
        List<LakeWatch.Sample> samples = watch.samples();
        String lake = samples.isEmpty() ? "lake not polled yet" : lagText(samples.get(samples.size() - 1));
        TableEnvironment flussBatch = run.table().flussBatch();
        try (Workload prefix = run.judgedPrefix(written); Workload.Reads reads = prefix.reads()) {
            run.steps().progress().step("live check after round " + round + ": the union read while " + lake);
            Reading reading = new Reading(run.steps(), reads, BoundedRead.GRACE, run.failures());
            String all = run.selectAllAfter(prefix, written);
            reading.together(List.of(reading.plan("fluss_union", Workload.Source.SNAPSHOT,
                    () -> Reading.Bound.endsByItself(""), (lane, sink) -> BoundedRead.collect(lane, flussBatch, all,
                            sink, run.cfg().deadline()))));
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
    static ProofReport.Checkpoint checkpoint(ProofRun run, int round, int written) {
        Unfinished unfinished = null;
        String lake;
        try {
            lake = "lake snapshot " + Quiescence.awaitTiering(run).lakeSnapshotId();
        } catch (TieringUnfinished e) {
            unfinished = e.unfinished();
            lake = "tiering " + unfinished.word().toLowerCase(java.util.Locale.ROOT);
        }
        try (Workload prefix = run.judgedPrefix(written); Workload.Reads reads = prefix.reads()) {
            String all = run.selectAllAfter(prefix, written);
            run.steps().progress().step("checkpoint after round " + round + ": the lake and the union read");
            // A read that fails here is this checkpoint's finding, as in the final reads.
            Reading reading = new Reading(run.steps(), reads, BoundedRead.GRACE, run.failures());
            TableEnvironment paimonBatch = StreamhouseTable.paimon(run.engine().batchTables(), run.cfg().warehouse(),
                    run.cfg().database());
            TableEnvironment flussBatch = run.table().flussBatch();
            reading.together(List.of(
                    reading.plan("paimon_batch", Workload.Source.SNAPSHOT, () -> Reading.Bound.endsByItself(""),
                            (lane, sink) -> BoundedRead.collect(lane, paimonBatch, all, sink, run.cfg().deadline())),
                    reading.plan("fluss_union", Workload.Source.SNAPSHOT, () -> Reading.Bound.endsByItself(""),
                            (lane, sink) -> BoundedRead.collect(lane, flussBatch, all, sink, run.cfg().deadline()))));
            return new ProofReport.Checkpoint(Kind.AFTER_ROUND, "after round " + round + " (operations 1-"
                    + written + ", " + lake + ")", reads.judge(reading.failures()), unfinished);
        }
    }
}
