package dev.tierproof.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("quick")
class ProcessesTest {
    @Test
    void aZombieIsAliveToTheJdkButDoesNotRun() throws Exception {
        // sh starts `true` and then becomes `sleep`, which never collects it: `true` ends a zombie.
        Process parent = new ProcessBuilder("sh", "-c", "true & exec sleep 30").start();
        try {
            ProcessHandle zombie = null;
            for (int i = 0; i < 500 && zombie == null; i++) {
                zombie = parent.toHandle().children().filter(c -> Processes.state(c.pid()) == 'Z').findFirst()
                        .orElse(null);
                Thread.sleep(10);
            }
            assertThat(zombie).as("a zombie child of " + parent.pid()).isNotNull();
            assertThat(zombie.isAlive()).as("the JDK's view").isTrue();
            assertThat(Processes.running(zombie)).isFalse();
            assertThat(Processes.running(parent.pid())).isTrue();
        } finally {
            parent.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(Processes.running(parent.toHandle())).isFalse();
        assertThat(Processes.state(ProcessHandle.current().pid())).isIn('R', 'S');
    }
}
