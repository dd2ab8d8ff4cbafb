package dev.tierproof.proof;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.nemesis.Fault;
import dev.tierproof.nemesis.Servers;
import dev.tierproof.nemesis.Target;
import dev.tierproof.nemesis.TieringService;
import dev.tierproof.run.Progress;
import dev.tierproof.run.Steps;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A fault that lasts heals once, and says so, whether its timer or the writing's end heals it; the
 * writing's end waits for a heal under way instead of cutting it off (a SIGCONT cut off would leave
 * the server stopped).
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class FaultScheduleTest {
    /** Servers whose pause takes {@code continueMillis} to be undone, as a slow {@code kill -CONT} would. */
    private static Servers slowToContinue(List<String> calls, long continueMillis) {
        return new Servers() {
            @Override
            public void restartTabletServer(int id, boolean samePort) {}

            @Override
            public void restartCoordinator() {}

            @Override
            public void restartZooKeeper() {}

            @Override
            public Runnable pauseTabletServer(int id) {
                calls.add("pause " + id);
                return () -> {
                    try {
                        Thread.sleep(continueMillis);
                        calls.add("continued " + id);
                    } catch (InterruptedException e) {
                        calls.add("cut off " + id);
                        Thread.currentThread().interrupt();
                    }
                };
            }
        };
    }

    @Test
    void theWritingsEndWaitsForAHealUnderWay() throws Exception {
        List<String> calls = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Steps steps = Steps.unbounded(Progress.to(new PrintStream(out, true, StandardCharsets.UTF_8)));
        FaultSchedule faults = new FaultSchedule(Fault.parse("pause-leader@1+20ms", 5),
                new Target(slowToContinue(calls, 400), new TieringService(() -> {}, () -> ""), null, "db", "t", () -> 1), steps);
        faults.inject(0);
        Thread.sleep(150); // the timer's heal is under way
        faults.close();
        assertThat(calls).containsExactly("pause 1", "continued 1");
        assertThat(out.toString(StandardCharsets.UTF_8)).containsOnlyOnce("fault: pause-leader@1+20ms healed");
    }

    @Test
    void theWritingsEndHealsWhatStillHoldsAndSaysSo() {
        List<String> calls = new CopyOnWriteArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Steps steps = Steps.unbounded(Progress.to(new PrintStream(out, true, StandardCharsets.UTF_8)));
        FaultSchedule faults = new FaultSchedule(Fault.parse("pause-leader@1+60s", 5),
                new Target(slowToContinue(calls, 0), new TieringService(() -> {}, () -> ""), null, "db", "t", () -> 2), steps);
        faults.inject(0);
        faults.close();
        assertThat(calls).containsExactly("pause 2", "continued 2");
        assertThat(out.toString(StandardCharsets.UTF_8)).containsOnlyOnce("fault: pause-leader@1+60s healed");
        assertThat(faults.injected()).singleElement().asString().startsWith("pause-leader@1+60s (tablet server 2,");
    }
}
