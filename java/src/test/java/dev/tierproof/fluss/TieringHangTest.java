package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.report.Unfinished;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A STALLED verdict names Fluss 0.9.1's tiering hang when the tiering source's coordinator thread
 * is parked in BucketOffsetsRetrieverImpl.listOffsets (the thread dump of
 * docs/findings/fluss-0.9-tiering-hangs-on-list-offsets.md), and nothing else.
 */
@Tag("quick") // no servers: thread dumps as records
class TieringHangTest {
    private static final StackTraceElement GET = new StackTraceElement("java.util.concurrent.CompletableFuture",
            "get", "CompletableFuture.java", 2072);
    private static final StackTraceElement LIST = new StackTraceElement(
            "org.apache.fluss.client.initializer.BucketOffsetsRetrieverImpl", "listOffsets",
            "BucketOffsetsRetrieverImpl.java", 77);

    @Test
    void theParkedCoordinatorIsNamed() {
        TieringHang.Seen hung = new TieringHang.Seen("SourceCoordinator-Source: TieringSource", Thread.State.WAITING,
                List.of(GET, LIST));
        assertThat(TieringHang.parked(List.of(hung))).contains("BucketOffsetsRetrieverImpl.listOffsets (line 77)");
    }

    @Test
    void anyOtherThreadOrStateIsNot() {
        assertThat(TieringHang.parked(List.of(new TieringHang.Seen("SourceCoordinator-Source: TieringSource",
                Thread.State.RUNNABLE, List.of(GET, LIST))))).as("running, not parked").isEmpty();
        assertThat(TieringHang.parked(List.of(new TieringHang.Seen("fluss-netty-client", Thread.State.WAITING,
                List.of(GET, LIST))))).as("another thread").isEmpty();
        assertThat(TieringHang.parked(List.of(new TieringHang.Seen("SourceCoordinator-Source: TieringSource",
                Thread.State.WAITING, List.of(GET))))).as("parked elsewhere").isEmpty();
    }

    @Test
    void aLaggingOrUnhungStallIsLeftAsItIs() {
        Unfinished lagging = Unfinished.lagging("still moving");
        assertThat(TieringHang.named(lagging)).isSameAs(lagging);
        Unfinished stalled = Unfinished.stalled("no bucket's lake offset moved in 40 s");
        assertThat(TieringHang.named(stalled)).as("no such thread in this JVM").isEqualTo(stalled);
    }

    @Test
    void aCoordinatorParkedElsewhereIsShownNotNamed() {
        StackTraceElement enumerator = new StackTraceElement("org.apache.fluss.flink.tiering.source.enumerator"
                + ".TieringSourceEnumerator", "generateSplits", "TieringSourceEnumerator.java", 300);
        assertThat(TieringHang.seen(List.of(new TieringHang.Seen("SourceCoordinator-Source: TieringSource",
                Thread.State.WAITING, List.of(GET, enumerator))))).contains("the tiering job's coordinator thread(s),"
                        + " no known hang: SourceCoordinator-Source: TieringSource WAITING in"
                        + " TieringSourceEnumerator.generateSplits:300");
        assertThat(TieringHang.seen(List.of(new TieringHang.Seen("fluss-netty-client", Thread.State.WAITING,
                List.of(GET))))).isEmpty();
    }
}
