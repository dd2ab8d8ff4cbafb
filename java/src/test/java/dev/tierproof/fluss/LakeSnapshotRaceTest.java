package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.exception.UnknownServerException;
import org.junit.jupiter.api.Test;

class LakeSnapshotRaceTest {
    /** The server's answer when the offsets file its ZooKeeper read named was deleted meanwhile (as seen in CI). */
    private static final UnknownServerException LOST = new UnknownServerException(
            "org.apache.fluss.exception.FlussRuntimeException: Failed to get lake table snapshot for table:"
                    + " fluss.lakeback, table id: 3\nCaused by: java.io.FileNotFoundException:"
                    + " /tmp/c/remote/lake/fluss/lakeback-3/metadata/7837b1c2.offsets (No such file or directory)");

    private static CompletableFuture<LakeSnapshot> failing(Throwable t) {
        return CompletableFuture.failedFuture(t);
    }

    @Test
    void onlyAServerErrorNamingAMissingOffsetsFileIsTheRace() {
        assertThat(LakeSnapshotRace.lostTo(LOST)).isTrue();
        assertThat(LakeSnapshotRace.lostTo(new FlussRuntimeException("wrapped", LOST))).isTrue();
        assertThat(LakeSnapshotRace.lostTo(new UnknownServerException("404 Not Found <Code>NoSuchKey</Code> for"
                + " s3://b/remote/lake/db/t-1/metadata/x.offsets"))).isTrue();
        assertThat(LakeSnapshotRace.lostTo(new UnknownServerException("java.io.FileNotFoundException: /x/snapshot-3")))
                .as("another missing file is not this race").isFalse();
        assertThat(LakeSnapshotRace.lostTo(new UnknownServerException("table has no leader"))).isFalse();
    }

    @Test
    void theRaceIsAskedAgainAndAnythingElseIsThrownAsItCame() throws Exception {
        LakeSnapshot answer = new LakeSnapshot(7, java.util.Map.of());
        AtomicInteger asked = new AtomicInteger();
        assertThat(LakeSnapshotRace.ask(() -> asked.incrementAndGet() < 3 ? failing(LOST)
                : CompletableFuture.completedFuture(answer), 1000)).isSameAs(answer);
        assertThat(asked).hasValue(3);

        AtomicInteger always = new AtomicInteger();
        assertThatThrownBy(() -> LakeSnapshotRace.ask(() -> {
            always.incrementAndGet();
            return failing(LOST);
        }, 1000)).isInstanceOf(ExecutionException.class).hasCause(LOST);
        assertThat(always).as("bounded: asked once and retried %d times", LakeSnapshotRace.RETRIES)
                .hasValue(1 + LakeSnapshotRace.RETRIES);

        AtomicInteger other = new AtomicInteger();
        UnknownServerException unrelated = new UnknownServerException("boom");
        assertThatThrownBy(() -> LakeSnapshotRace.ask(() -> {
            other.incrementAndGet();
            return failing(unrelated);
        }, 1000)).hasCause(unrelated);
        assertThat(other).hasValue(1);
    }
}
