package dev.tierproof.proof;

import dev.tierproof.fluss.Tiering;
import dev.tierproof.fluss.TieringHang;
import dev.tierproof.fluss.TieringUnfinished;
import dev.tierproof.report.Unfinished;
import dev.tierproof.run.Steps;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;

/**
 * The proof's tiering stage: once writes have stopped, the lake must catch up with the log. If no
 * bucket's lake offset moves for the stall window the verdict is STALLED (a finding); if they
 * still move when the wait runs out, LAGGING (slow, not stuck: no finding). Either way the reads
 * that end by themselves still run, as evidence of what the lake holds.
 */
final class Quiescence {
    /** Where tiering ended: caught up ({@code quiesced}), or not, with its evidence. */
    record Tiered(Tiering.Quiesced quiesced, Unfinished unfinished) {
        /** The log's changes every streaming read stops at, or -1 when tiering did not catch up. */
        long logChanges() {
            return quiesced != null ? quiesced.logEndOffset() : -1;
        }

        /** Whether the lake never caught up (STALLED or LAGGING): no count to stop streaming reads at. */
        boolean unfinishedTiering() {
            return unfinished != null;
        }
    }

    private Quiescence() {}

    /**
     * Waits for tiering, takes the watch's last look and closes it; what went wrong meanwhile (the
     * lake going backwards, the tiering job failing) joins the run's failures.
     */
    static Tiered await(ProofRun run) {
        Tiering.Quiesced q = null;
        Unfinished unfinished = null;
        try {
            q = awaitTiering(run);
            run.timings().put("tiering_wait", q.waitedMillis());
            run.steps().progress().step("tiered: " + q.logEndOffset() + " changes in " + q.buckets() + " bucket(s),"
                    + " lake snapshot " + q.lakeSnapshotId() + " (" + q.waitedMillis() + " ms)");
        } catch (TieringUnfinished e) {
            unfinished = TieringHang.named(e.unfinished(), run.cluster().jobManager());
            run.steps().progress().step(unfinished.word() + ": " + unfinished.evidence());
        }
        run.watch().poll(); // the last look: the snapshot tiering ended with
        run.watch().close();
        run.failures().addAll(run.watch().backwards());
        // The servers' own word for committed changes they cut (where their logs are in sight).
        run.failures().addAll(dev.tierproof.fluss.CommittedTruncation.of(run.cluster().tabletServerLogs(),
                run.table().id()));
        String tieringFailed = run.tiering().failure();
        if (tieringFailed != null) {
            run.failures().add(tieringFailed);
        }
        return new Tiered(q, unfinished);
    }

    /**
     * Waits, as a step, until the lake holds every bucket's log up to its end offset: STALLED when
     * nothing moves for the stall window (from the table's freshness and the slowest round of
     * tiering the run's watch saw) or at once when the run's own tiering job has failed (run as
     * Fluss documents it, it never comes back), LAGGING when the step's deadline nears while it
     * still moves.
     */
    static Tiering.Quiesced awaitTiering(ProofRun run) {
        Steps steps = run.steps();
        Connection connection = run.connection();
        TablePath path = run.table().path();
        Duration deadline = run.cfg().deadline();
        steps.progress().step("waiting for tiering to quiesce (every bucket's lake offset = its log end offset)");
        AtomicReference<String> seen = new AtomicReference<>("offsets not read yet");
        return steps.run("waiting for tiering to quiesce", deadline, control -> {
            control.detail(() -> seen.get() + Tiering.NO_CHANGE_NOTE);
            Duration freshness = connection.getAdmin().getTableInfo(path).get().getTableConfig()
                    .getDataLakeFreshness();
            Duration window = Tiering.stallWindow(freshness, run.watch().slowestRound());
            return Tiering.awaitQuiesced(connection.getAdmin(), path, window, Tiering.waitBound(deadline),
                    run.tiering()::failure, seen);
        });
    }
}
