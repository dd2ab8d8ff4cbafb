package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.report.Unfinished;
import java.util.List;
import java.util.Optional;
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
        assertThat(TieringHang.named(lagging, Optional.empty())).isSameAs(lagging);
        Unfinished stalled = Unfinished.stalled("no bucket's lake offset moved in 40 s");
        assertThat(TieringHang.named(stalled, Optional.empty())).as("no such thread in this JVM").isEqualTo(stalled);
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

    @Test
    void aJobManagersDumpIsReadAsThreads() {
        // As jcmd PID Thread.print showed a cluster up JobManager's, a kill of a leader later (2026-12-07).
        String dump = String.join("\n",
                "\"SourceCoordinator-Source: TieringSource\" #140 prio=5 os_prio=0 cpu=11.62ms elapsed=30.49s"
                        + " tid=0x00007f4c1808cf70 nid=0x5ca waiting on condition  [0x00007f4ca0bfc000]",
                "   java.lang.Thread.State: WAITING (parking)",
                "\tat jdk.internal.misc.Unsafe.park(java.base@17.0.15/Native Method)",
                "\t- parking to wait for  <0x00000000e73262e8> (a java.util.concurrent.CompletableFuture$Signaller)",
                "\tat java.util.concurrent.CompletableFuture.get(java.base@17.0.15/CompletableFuture.java:2072)",
                "\tat org.apache.fluss.client.initializer.BucketOffsetsRetrieverImpl.listOffsets"
                        + "(BucketOffsetsRetrieverImpl.java:77)",
                "\tat org.apache.fluss.flink.tiering.source.enumerator.TieringSourceEnumerator$$Lambda$1160"
                        + "/0x00007f4c4482ea28.accept(Unknown Source)",
                "",
                "\"Checkpoint Timer\" #141 daemon prio=5 os_prio=0 cpu=3.37ms elapsed=12.65s tid=0x1 nid=0x5cb",
                "   java.lang.Thread.State: TIMED_WAITING (parking)");
        List<TieringHang.Seen> threads = ThreadDump.parse(dump);
        assertThat(threads).extracting(TieringHang.Seen::name)
                .containsExactly("SourceCoordinator-Source: TieringSource", "Checkpoint Timer");
        assertThat(threads.get(0).frames()).hasSize(4);
        assertThat(threads.get(1).state()).isEqualTo(Thread.State.TIMED_WAITING);
        assertThat(TieringHang.parked(threads)).contains("BucketOffsetsRetrieverImpl.listOffsets (line 77)");
    }

    @Test
    void aLiveJvmIsDumpedWithJcmd() {
        assertThat(ThreadDump.of(ProcessHandle.current())).extracting(TieringHang.Seen::name).contains("main");
    }
}
