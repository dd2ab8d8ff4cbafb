package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.tierproof.report.Unfinished;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Slow is not stalled: the wait for tiering calls it STALLED only when no bucket's lake offset
 * moved for a whole window, and LAGGING when the wait ran out while they still moved. Scripted
 * looks at the lake, one every 10 ms.
 */
@Tag("quick")
class TieringWaitTest {
    private static final TableBucket B0 = new TableBucket(1, 0);
    private static final TableBucket B1 = new TableBucket(1, 1);
    private static final Map<TableBucket, Long> LOG_ENDS = Map.of(B0, 1000L, B1, 1000L);
    private static final Duration LOOK = Duration.ofMillis(10);

    /** The lake as it is at each look; the last one stays. */
    private static Tiering.LakeLook lake(List<LakeSnapshot> looks) {
        Iterator<LakeSnapshot> it = looks.iterator();
        LakeSnapshot[] last = {null};
        return () -> last[0] = it.hasNext() ? it.next() : last[0];
    }

    /** Tiering that moves one change a look on each bucket, never catching up in the wait. */
    private static Tiering.LakeLook creeping() {
        long[] at = {0};
        return () -> {
            at[0]++;
            return new LakeSnapshot(at[0], Map.of(B0, at[0], B1, at[0]));
        };
    }

    private static Unfinished unfinished(Tiering.LakeLook look, Duration window, Duration bound) {
        TieringUnfinished e = catchThrowableOfType(TieringUnfinished.class, () -> Tiering.awaitLake(LOG_ENDS, look,
                window, bound, LOOK, () -> null, new AtomicReference<>()));
        assertThat(e).as("the wait did not end caught up").isNotNull();
        return e.unfinished();
    }

    @Test
    void tieringThatKeepsMovingButRunsOutOfTimeIsLaggingNotStalled() {
        Unfinished u = unfinished(creeping(), Duration.ofMillis(300), Duration.ofMillis(600));
        assertThat(u.word()).isEqualTo("LAGGING");
        assertThat(u.evidence()).containsPattern("^\\d+ of the log's 2000 changes tiered, \\d+ of them in this"
                + " wait's 0\\.\\d s \\([\\d.]+ changes/s, the last 0\\.0 s ago\\): about \\d+ s more at that rate;"
                + " the log holds 2000 changes in 2 bucket\\(s\\); lake snapshot \\d+ has 2 bucket\\(s\\) behind");
        assertThat(u.reason()).startsWith("writes had stopped and the lake was still catching up when the wait ran"
                + " out (slow, not stalled)");
    }

    @Test
    void tieringThatStopsMovingIsStalledOnceTheWindowPasses() {
        LakeSnapshot s1 = new LakeSnapshot(1, Map.of(B0, 1000L, B1, 400L));
        LakeSnapshot s2 = new LakeSnapshot(2, Map.of(B0, 1000L, B1, 700L));
        long t = System.nanoTime();
        Unfinished u = unfinished(lake(List.of(s1, s1, s2)), Duration.ofMillis(200), Duration.ofSeconds(30));
        assertThat(Duration.ofNanos(System.nanoTime() - t)).as("it ends with the window, not the wait's bound")
                .isLessThan(Duration.ofSeconds(10));
        assertThat(u.word()).isEqualTo("STALLED");
        assertThat(u.evidence()).startsWith("no bucket's lake offset moved in 0.2 s (the stall window")
                .contains("lake snapshot 2 has 1 bucket(s) behind: TableBucket{tableId=1, bucket=1} at 700 of 1000");
    }

    @Test
    void aFailedTieringJobIsStalledAtOnceNotAfterTheWindow() {
        LakeSnapshot s1 = new LakeSnapshot(1, Map.of(B0, 1000L, B1, 400L));
        long t = System.nanoTime();
        TieringUnfinished e = catchThrowableOfType(TieringUnfinished.class, () -> Tiering.awaitLake(LOG_ENDS,
                lake(List.of(s1)), Duration.ofSeconds(60), Duration.ofSeconds(60), LOOK,
                () -> "the lake tiering job failed: manifest is not a directory", new AtomicReference<>()));
        assertThat(Duration.ofNanos(System.nanoTime() - t)).isLessThan(Duration.ofSeconds(10));
        assertThat(e.unfinished().word()).isEqualTo("STALLED");
        assertThat(e.unfinished().evidence()).startsWith("no bucket's lake offset moved since the lake tiering job"
                + " failed: manifest is not a directory (it is not restarted: nothing tiers the table any more);"
                + " the log holds 2000 changes");
    }

    @Test
    void aLakeThatNeverMovesInAWaitShorterThanTheWindowIsStalled() {
        Unfinished u = unfinished(lake(List.of()), Duration.ofSeconds(30), Duration.ofMillis(200));
        assertThat(u.word()).isEqualTo("STALLED");
        assertThat(u.evidence()).isEqualTo("no bucket's lake offset moved in the wait's 0.2 s; the log holds 2000"
                + " changes in 2 bucket(s); no lake snapshot yet");
    }

    @Test
    void aLakeThatCatchesUpEndsTheWait() throws Exception {
        LakeSnapshot behind = new LakeSnapshot(1, Map.of(B0, 1000L, B1, 10L));
        LakeSnapshot caughtUp = new LakeSnapshot(2, Map.of(B0, 1000L, B1, 1000L));
        Tiering.Quiesced q = Tiering.awaitLake(LOG_ENDS, lake(List.of(behind, behind, caughtUp)),
                Duration.ofSeconds(5), Duration.ofSeconds(10), LOOK, () -> null, new AtomicReference<>());
        assertThat(q.lakeSnapshotId()).isEqualTo(2);
        assertThat(q.logEndOffset()).isEqualTo(2000);
        assertThat(q.buckets()).isEqualTo(2);
    }

    @Test
    void theStallWindowGrowsWithTheSlowestRoundSeen() {
        Duration freshness = Duration.ofSeconds(1);
        assertThat(Tiering.stallWindow(freshness, Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(40));
        assertThat(Tiering.stallWindow(freshness, Duration.ofSeconds(35))).isEqualTo(Duration.ofSeconds(70));
        assertThat(Tiering.waitBound(Duration.ofSeconds(120))).isEqualTo(Duration.ofSeconds(118));
    }
}
