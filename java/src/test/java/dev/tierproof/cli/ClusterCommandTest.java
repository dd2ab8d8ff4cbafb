package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.cli.MainTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Fluss cluster of separate processes (ZooKeeper, a coordinator, two tablet servers, each a
 * JVM of its own on loopback), and the streamhouse proof on it through {@code --fluss}: the
 * embedded Flink runs the tiering job and the reads, the servers run elsewhere.
 */
class ClusterCommandTest {
    @TempDir
    Path tmp;

    @Test
    void upStreamhouseOnItKillATabletServerDown() throws Exception {
        Path dir = tmp.resolve("cluster");
        List<String> pids = List.of();
        try {
            Outcome up = run("cluster", "up", "--dir", dir.toString());
            assertThat(up.status()).as(up.out() + up.err()).isEqualTo(Main.CONSISTENT);
            Matcher m = Pattern.compile("--fluss (127\\.0\\.0\\.1:\\d+) --warehouse (\\S+)").matcher(up.out());
            assertThat(m.find()).as(up.out()).isTrue();
            String fluss = m.group(1);
            String warehouse = m.group(2);
            assertThat(up.out()).contains("tablet-0", "tablet-1", "coordinator", "zookeeper", "jobmanager",
                    "taskmanager").doesNotContain("NOT RUNNING");
            Matcher f = Pattern.compile("flink +: (127\\.0\\.0\\.1:\\d+)").matcher(up.out());
            assertThat(f.find()).as(up.out()).isTrue();
            String flink = f.group(1);
            // Separate processes, each on loopback: ZooKeeper, Fluss (3), Flink (a JobManager, a TaskManager).
            pids = Pattern.compile("pid (\\d+)").matcher(up.out()).results().map(r -> r.group(1)).toList();
            assertThat(pids).hasSize(6).doesNotContain(String.valueOf(ProcessHandle.current().pid()));

            Outcome again = run("cluster", "up", "--dir", dir.toString());
            assertThat(again.status()).isEqualTo(Main.FAILED);
            assertThat(again.err()).contains("a cluster is already up in " + dir);

            // By address, as a cluster tierproof did not start (allowed while no lake table is there); the
            // jobs on the Flink session cluster by address.
            Outcome byAddress = run("streamhouse", "--fluss", fluss, "--warehouse", warehouse, "--flink", flink,
                    "--table", "first", "--random", "40", "--keys", "8");
            assertThat(byAddress.status()).as(byAddress.out() + byAddress.err()).isEqualTo(Main.CONSISTENT);
            assertThat(byAddress.err()).contains("connecting to the Fluss cluster at " + fluss)
                    .contains("jobs go to the Flink session cluster at " + flink)
                    .doesNotContain("starting Fluss (ZooKeeper").doesNotContain("starting Flink MiniCluster");

            // On the cluster: Fluss's servers and Flink's session cluster (the tiering job and every read).
            Outcome proof = run("streamhouse", "--cluster", dir.toString(), "--random", "300", "--keys", "30",
                    "--seed", "5");
            assertThat(proof.status()).as(proof.out() + proof.err()).isEqualTo(Main.CONSISTENT);
            assertThat(proof.err()).contains("jobs go to the Flink session cluster at " + flink)
                    .doesNotContain("starting Flink MiniCluster");
            String jobs = flinkJobs(flink);
            assertThat(jobs).as("the tiering job and the reads ran there, and none is left running")
                    .contains("Fluss Lake Tiering Service").doesNotContain("\"RUNNING\"");
            assertThat(proof.out()).contains("fluss_changelog", "fluss_union", "paimon_batch")
                    .contains("tiered into      : Paimon fluss.accounts in " + warehouse);
            Outcome taken = run("streamhouse", "--cluster", dir.toString(), "--random", "10");
            assertThat(taken.status()).isEqualTo(Main.FAILED);
            assertThat(taken.err()).contains("table fluss.accounts already exists");

            // Now it holds lake tables: by address, tierproof's tiering job would tier them too. Refused, untouched.
            Outcome others = run("streamhouse", "--fluss", fluss, "--warehouse", warehouse, "--table", "third",
                    "--random", "10");
            assertThat(others.status()).isEqualTo(Main.FAILED);
            assertThat(others.err()).contains("has lake-enabled tables (fluss.accounts, fluss.first)")
                    .doesNotContain("creating Fluss table");

            // Its tables audited read-only, as tables someone else wrote: on the multi-process cluster.
            Outcome audit = run("audit", "--cluster", dir.toString(), "--table", "fluss.accounts");
            assertThat(audit.status()).as(audit.out() + audit.err()).isEqualTo(Main.CONSISTENT);
            assertThat(audit.out()).contains("reference        : fluss_log").contains("(tier lag 0)");

            // Faults restart servers, which tierproof does only on a cluster it started itself.
            Outcome faults = run("streamhouse", "--fluss", fluss, "--warehouse", warehouse, "--table", "other",
                    "--random", "20", "--faults", "restart-tablet@10");
            assertThat(faults.status()).isEqualTo(Main.FAILED);
            assertThat(faults.err()).contains("leave --fluss out").doesNotContain("connecting");

            // kill -9 of one tablet server: status says so, and its exit status too.
            long tablet = Long.parseLong(up.out().lines().filter(l -> l.startsWith("tablet-1"))
                    .map(l -> l.replaceAll(".*pid (\\d+).*", "$1")).findFirst().orElseThrow());
            ProcessHandle h = ProcessHandle.of(tablet).orElseThrow();
            h.destroyForcibly();
            h.onExit().get();
            Outcome status = run("cluster", "status", "--dir", dir.toString());
            assertThat(status.status()).isEqualTo(Main.INCONSISTENT);
            assertThat(status.out()).containsPattern("tablet-1 +: 127\\.0\\.0\\.1:\\d+, pid " + tablet
                    + ", NOT RUNNING").containsPattern("tablet-0 +: .*running");
        } finally {
            if (Files.exists(dir)) { // up failed: it removes its directory itself, and that failure is the one to see
                Outcome down = run("cluster", "down", "--dir", dir.toString());
                assertThat(down.status()).as(down.out() + down.err()).isEqualTo(Main.CONSISTENT);
                assertThat(down.out()).contains("removed " + dir);
            }
        }
        assertThat(Files.exists(dir)).isFalse();
        assertThat(pids).as("no process of the cluster is left")
                .noneMatch(pid -> ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false));
        Outcome none = run("cluster", "status", "--dir", dir.toString());
        assertThat(none.status()).isEqualTo(Main.INCONSISTENT);
        assertThat(none.out()).contains("no cluster is up in " + dir);
    }

    /** The session cluster's jobs, as its REST endpoint lists them. */
    private static String flinkJobs(String rest) throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://" + rest + "/jobs/overview"))
                .timeout(java.time.Duration.ofSeconds(10)).build(), java.net.http.HttpResponse.BodyHandlers.ofString())
                .body();
    }

    @Test
    void aDirectoryNotItsOwnIsRefusedAndKept() throws Exception {
        Path mine = Files.createDirectories(tmp.resolve("users"));
        Files.writeString(mine.resolve("notes.txt"), "keep me");
        Outcome up = run("cluster", "up", "--dir", mine.toString());
        assertThat(up.status()).isEqualTo(Main.FAILED);
        assertThat(up.err()).contains("is not an empty directory");
        Outcome down = run("cluster", "down", "--dir", mine.toString());
        assertThat(down.status()).isEqualTo(Main.FAILED);
        assertThat(down.err()).contains("no cluster is up in " + mine);
        assertThat(Files.readString(mine.resolve("notes.txt"))).isEqualTo("keep me");
        Outcome bad = run("cluster", "sideways");
        assertThat(bad.status()).isEqualTo(Main.FAILED);
        assertThat(bad.err()).contains("cluster sideways: say up, down or status");
    }
}
