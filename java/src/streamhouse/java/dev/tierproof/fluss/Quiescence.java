package dev.tierproof.fluss;

import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;

/**
 * The proof's tiering stage: once writes have stopped, the lake must catch up with the log within
 * the stall bound, or the verdict is STALLED (the reads that end by themselves still run, as
 * evidence of what the lake holds).
 */
final class Quiescence {
    /** Where tiering ended: caught up ({@code quiesced}), or stalled with its evidence. */
    record Tiered(Tiering.Quiesced quiesced, String stalled) {
        /** The log's changes every streaming read stops at, or -1 when tiering stalled. */
        long logChanges() {
            return quiesced != null ? quiesced.logEndOffset() : -1;
        }
    }

    private Quiescence() {}

    /**
     * Waits for tiering, takes the watch's last look and closes it; what went wrong meanwhile (the
     * lake going backwards, the tiering job failing) joins the run's failures.
     */
    static Tiered await(ProofRun run, TieringJob tiering) {
        Tiering.Quiesced q = null;
        String stalled = null;
        try {
            q = awaitTiering(run.steps(), run.connection(), run.table().path(), run.cfg().deadline());
            run.timings().put("tiering_wait", q.waitedMillis());
            run.steps().progress().step("tiered: " + q.logEndOffset() + " changes in " + q.buckets() + " bucket(s),"
                    + " lake snapshot " + q.lakeSnapshotId() + " (" + q.waitedMillis() + " ms)");
        } catch (TieringStalled e) {
            stalled = e.evidence();
            run.steps().progress().step("STALLED: " + stalled);
        }
        run.watch().poll(); // the last look: the snapshot tiering ended with
        run.watch().close();
        run.failures().addAll(run.watch().backwards());
        String tieringFailed = tiering.failure();
        if (tieringFailed != null) {
            run.failures().add(tieringFailed);
        }
        return new Tiered(q, stalled);
    }

    /** Waits, as a step, until the lake holds every bucket's log up to its end offset. */
    static Tiering.Quiesced awaitTiering(Steps steps, Connection connection, TablePath path, Duration deadline) {
        steps.progress().step("waiting for tiering to quiesce (every bucket's lake offset = its log end offset)");
        AtomicReference<String> seen = new AtomicReference<>("offsets not read yet");
        return steps.run("waiting for tiering to quiesce", deadline, control -> {
            control.detail(() -> seen.get() + Tiering.NO_CHANGE_NOTE);
            Duration freshness = connection.getAdmin().getTableInfo(path).get().getTableConfig()
                    .getDataLakeFreshness();
            return Tiering.awaitQuiesced(connection.getAdmin(), path, Tiering.stallBound(freshness, deadline), seen);
        });
    }
}
