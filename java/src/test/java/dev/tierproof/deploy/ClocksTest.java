package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part of cluster up --clocks runs on a clock of its own: started as a server is, it reads the
 * offset its clock fault wrote, and the true time once healed; the machine's clock never moves.
 * (./build.sh installs libfaketime for it.)
 */
@Tag("quick") // no servers: `date` started as a part is
class ClocksTest {
    @TempDir
    Path dir;

    @Test
    void aPartReadsItsOwnClockAndTheTrueOneOnceHealed() throws Exception {
        Files.createDirectories(dir.resolve("logs"));
        Clocks.give(dir, "probe");
        assertThat(Clocks.environment(dir, "probe")).containsKeys("LD_PRELOAD", "FAKETIME_TIMESTAMP_FILE");
        assertThat(Clocks.environment(dir, "other")).as("a part with no clock of its own").isEmpty();

        Runnable heal = Clocks.trueAgain(dir, "probe");
        Clocks.move(dir, "probe", Duration.ofMinutes(10));
        assertThat(secondsAhead()).isBetween(590L, 610L);
        assertThat(Math.abs(System.currentTimeMillis() / 1000 - epochOf("date"))).as("the machine's clock")
                .isLessThan(10L);
        heal.run();
        assertThat(secondsAhead()).isBetween(-10L, 10L);

        Clocks.move(dir, "probe", Duration.ofMinutes(-10));
        assertThat(secondsAhead()).isBetween(-610L, -590L);
        assertThat(Clocks.reset(dir)).as("a clock a killed run left skewed").containsExactly("probe");
        assertThat(Clocks.reset(dir)).isEmpty();
        assertThatThrownBy(() -> Clocks.move(dir, "other", Duration.ofMinutes(1)))
                .hasMessageContaining("other has no clock of its own");
    }

    /** How far the probe's clock is from this JVM's, in seconds. */
    private long secondsAhead() throws Exception {
        return epochOf("probe") - System.currentTimeMillis() / 1000;
    }

    /** The epoch second `date` prints when started as part {@code name} of the cluster in {@code dir}. */
    private long epochOf(String name) throws Exception {
        Path log = dir.resolve("logs").resolve(name + ".log");
        Files.deleteIfExists(log);
        Process p = Launcher.launch(dir, name, name, "/bin/date", null, "+%s");
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return Long.parseLong(Files.readString(log).strip());
    }
}
