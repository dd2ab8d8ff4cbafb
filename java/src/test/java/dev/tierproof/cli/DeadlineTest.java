package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.cli.MainTest.Outcome;
import dev.tierproof.support.CliProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The deadline bounds every step, planning included, and the budget bounds the run. */
class DeadlineTest {
    @TempDir
    Path dir;

    /**
     * One INSERT of 10 000 rows takes Flink about 20 s just to plan: a 3 s deadline must stop it
     * there (planning is not interruptible, so this runs as its own process: the abandoned planner
     * thread ends with it), name the step, and clean up.
     */
    @Test
    void planningAHugeStatementIsBoundedByTheDeadline() throws Exception {
        StringBuilder csv = new StringBuilder("id,bal\n");
        for (int i = 0; i < 10_000; i++) {
            csv.append(i % 100).append(',').append(i).append('\n');
        }
        Path upserts = dir.resolve("upserts.csv");
        Files.writeString(upserts, csv);
        long start = System.nanoTime();
        CliProcess p = CliProcess.start(dir.resolve("tmp"), dir.resolve("logs"), "prove", "--upserts",
                upserts.toString(), "--rows-per-insert", "10000", "--deadline-s", "3");
        int status = p.exitStatus(Duration.ofSeconds(90));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(Main.FAILED, status, p.out() + p.err());
        assertTrue(p.err().contains("INSERT 1 of 1 did not end within its deadline of 3 s and was cancelled"), p.err());
        assertTrue(seconds < 45, "stopped at the deadline, not after planning: " + seconds + " s");
        assertTrue(java.nio.file.Files.list(dir.resolve("tmp")).findAny().isEmpty(), "nothing left in tmp");
    }

    @Test
    void theRunBudgetBoundsTheWholeRunAndNamesTheStep() {
        Outcome o = run("prove", "--random", "60", "--rows-per-insert", "1", "--timeout-s", "6");
        assertEquals(Main.FAILED, o.status(), o.out() + o.err());
        assertTrue(o.err().contains("the run's time budget of 6 s (--timeout-s) ran out during "), o.err());
        assertTrue(o.err().matches("(?s).*during (INSERT|DELETE) \\d+ of 60.*"), o.err());
    }

    @Test
    void aBatchThePlannerCannotHandleIsRefusedUpFront() {
        Outcome o = run("prove", "--random", "200000", "--keys", "1000", "--rows-per-insert", "100000");
        assertEquals(Main.FAILED, o.status());
        assertTrue(o.err().contains("--rows-per-insert 100000 must be between 1 and 10000"), o.err());
        assertTrue(!o.err().contains("starting Flink"), o.err());
    }
}
