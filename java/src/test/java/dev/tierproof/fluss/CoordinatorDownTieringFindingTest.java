package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.support.FlinkEngineExtension;
import dev.tierproof.support.FlussClusterExtension;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pins docs/findings/fluss-0.9-tiering-job-dies-on-transient-failure.md: Fluss 0.9.1's lake tiering
 * job, built by Fluss's own {@code LakeTieringJobBuilder} and run as its entry point runs it (no
 * checkpointing, so no restart strategy), fails for good when the coordinator is down while it
 * starts, and stays failed after the coordinator is back. When Fluss fixes it this test fails, and
 * the finding's note goes.
 */
class CoordinatorDownTieringFindingTest {
    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(4);

    @Test
    void aTieringJobStartedWhileTheCoordinatorIsDownFailsForGood() throws Exception {
        LocalFlussCluster cluster = FLUSS.cluster();
        cluster.stopCoordinator();
        try (Tiering tiering = Tiering.start(FLINK.engine(), cluster, FLUSS.warehouse(), Duration.ofMillis(500))) {
            Thread.sleep(8_000); // the job starts, its split enumerator cannot reach the coordinator
            cluster.startCoordinator();
            String failure = null;
            for (int i = 0; i < 60 && failure == null; i++) {
                failure = tiering.failure();
                Thread.sleep(500);
            }
            assertThat(failure).as("the tiering job's state 30 s after the coordinator came back")
                    .isNotNull().contains("Connection refused");
        } finally {
            cluster.startCoordinatorIfStopped();
        }
    }
}
