package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.util.Processes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("quick")
class ClusterShutdownTest {
    @Test
    void flinkAndTheTabletServersStopTogetherThenTheRestOneAtATime() {
        assertThat(ClusterShutdown.order(List.of("s3", "zookeeper", "coordinator", "tablet-0", "tablet-1",
                "jobmanager", "taskmanager"))).containsExactly(
                        List.of("taskmanager", "jobmanager", "tablet-1", "tablet-0"), List.of("coordinator"),
                        List.of("zookeeper"), List.of("s3"));
        assertThat(ClusterShutdown.order(List.of("hdfs-namenode", "hdfs-datanode", "zookeeper", "coordinator",
                "tablet-0"))).containsExactly(List.of("tablet-0"), List.of("coordinator"), List.of("zookeeper"),
                        List.of("hdfs-datanode"), List.of("hdfs-namenode"));
    }

    @Test
    void aServerStopsWhenAskedAndAStoreThatWaitsIsKilledAfterItsGrace() throws Exception {
        // The store ignores SIGTERM, as SeaweedFS's filer does for 15 s.
        Process server = part("tablet-0", "");
        Process store = part("s3", "trap '' TERM;");
        try {
            Map<String, ProcessCluster.State.Part> parts = new LinkedHashMap<>();
            parts.put("s3", handle(store, "s3"));
            parts.put("tablet-0", handle(server, "tablet-0"));
            long start = System.nanoTime();
            List<String> lines = ClusterShutdown.stop(parts, Duration.ofSeconds(60));
            double seconds = (System.nanoTime() - start) / 1e9;
            assertThat(lines).hasSize(2);
            assertThat(lines.get(0)).startsWith("tablet-0 (pid " + server.pid() + "): stopped in ");
            assertThat(lines.get(1)).startsWith("s3 (pid " + store.pid() + "): killed after ")
                    .endsWith("(it did not stop within its grace of 2 s)");
            assertThat(seconds).as("the store's grace, not the cluster's 60 s").isLessThan(30);
            // Neither runs: the JDK's isAlive() counts a process that has ended as alive until its reaper
            // thread collects it, which on a loaded machine can come after this line (CI44 failed here).
            assertThat(Processes.running(server.toHandle()) || Processes.running(store.toHandle())).isFalse();
        } finally {
            server.destroyForcibly();
            store.destroyForcibly();
        }
    }

    /**
     * A stand-in for a part: a shell whose command line names the part as its main class and marker.
     * It sleeps in short steps, so that no sleep outlives it by more than 0.1 s.
     */
    private static Process part(String name, String trap) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", trap + " while :; do sleep 0.1; done", "sh", "main-" + name,
                "marker-" + name, "end").start();
        // Its trap is set once it runs its first command; the command line is there from the start.
        Thread.sleep(300);
        return p;
    }

    private static ProcessCluster.State.Part handle(Process p, String name) {
        return new ProcessCluster.State.Part(p.pid(), "main-" + name, "127.0.0.1:1", "marker-" + name);
    }
}
