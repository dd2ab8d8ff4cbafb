package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tierproof.core.TierproofException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted tablet server that exits is told apart by its own log lines: one that gave up
 * registering (its killed predecessor's ZooKeeper session lingered) is started again; any other
 * exit fails the restart with the end of its log.
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class RegistrationsTest {
    @TempDir
    Path tmp;

    /** A part whose process is gone (this pid never runs the main class named). */
    private static final ProcessCluster.State.Part GONE = new ProcessCluster.State.Part(Long.MAX_VALUE / 2,
            "org.apache.fluss.server.tablet.TabletServer", "127.0.0.1:1", "tablet-0");

    private static final String GAVE_UP_LINE = "12:00:00.000 ERROR TabletServer - Tablet server id 0 "
            + Registrations.GAVE_UP + " of 60000 ms. Aborting registration attempts.\n";

    @Test
    void aServerThatGaveUpRegisteringIsToldApart() throws Exception {
        Path log = tmp.resolve("tablet-0.log");
        Files.writeString(log, "12:00:00.000 INFO  earlier lines\n");
        long start = Registrations.sizeOf(log);
        Files.writeString(log, GAVE_UP_LINE, java.nio.file.StandardOpenOption.APPEND);
        assertThatThrownBy(() -> Registrations.awaitNewRegistration("127.0.0.1:1", "/x", 0, GONE, log, start,
                Duration.ofSeconds(5))).isInstanceOf(Registrations.GaveUp.class)
                .hasMessageContaining("gave up registering it in ZooKeeper");
    }

    @Test
    void anEarlierServersLinesAreNotThisOnes() throws Exception {
        Path log = tmp.resolve("tablet-0.log");
        Files.writeString(log, GAVE_UP_LINE);
        long start = Registrations.sizeOf(log);
        Files.writeString(log, "12:01:00.000 ERROR TabletServer - something else\n", java.nio.file.StandardOpenOption.APPEND);
        assertThatThrownBy(() -> Registrations.awaitNewRegistration("127.0.0.1:1", "/x", 0, GONE, log, start,
                Duration.ofSeconds(5))).isInstanceOf(TierproofException.class)
                .isNotInstanceOf(Registrations.GaveUp.class)
                .hasMessageContaining("exited; the end of").hasMessageContaining("something else");
    }
}
