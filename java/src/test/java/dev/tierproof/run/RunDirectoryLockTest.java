package dev.tierproof.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A live run's directory stays its own when the same JVM sweeps beside it (a second run directory
 * made during a run): the sweep must not drop the run's lock, or another process's sweep would
 * remove the directory under the running proof (seen: an embedded Fluss cluster's data removed
 * mid-write, its writes never answered).
 */
@Tag("quick")
class RunDirectoryLockTest {
    @TempDir
    Path base;

    @Test
    void aSweepInTheSameJvmKeepsTheLiveRunsLock() throws Exception {
        try (RunDirectory live = RunDirectory.create(base)) {
            assertThat(RunDirectory.sweepStale(base)).isEmpty();
            try (RunDirectory beside = RunDirectory.create(base)) {
                assertThat(Files.isDirectory(live.root())).isTrue();
                assertThat(lockedForOthers(live.root())).as("the live run's lock, seen from another process").isTrue();
                assertThat(lockedForOthers(beside.root())).isTrue();
            }
            assertThat(lockedForOthers(live.root())).isTrue();
        }
    }

    /** Whether another process cannot take the run's owner lock (fcntl, as the JVM's). */
    private static boolean lockedForOthers(Path run) throws Exception {
        String script = "import fcntl, sys\n"
                + "f = open(sys.argv[1], 'r+')\n"
                + "try:\n"
                + "    fcntl.lockf(f, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
                + "except OSError:\n"
                + "    sys.exit(3)\n"
                + "sys.exit(0)\n";
        Process p = new ProcessBuilder("python3", "-c", script, run.resolve(RunDirectory.OWNER_FILE).toString())
                .inheritIO().start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("python3's exit: 3 locked, 0 free").isIn(0, 3);
        return p.exitValue() == 3;
    }
}
