package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.cli.MainTest.Outcome;
import dev.tierproof.support.ClusterLogs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-process cluster with its lake on GCS (fake-gcs-server, reached through Google's GCS
 * connector for Hadoop): proved on, as a cluster and by address with an embedded Fluss, audited,
 * its store's restart refused, and brought down with nothing left.
 */
class ClusterGcsTest {
    @TempDir
    Path tmp;

    @Test
    void aClusterWithItsLakeOnGcs() throws Exception {
        Path dir = tmp.resolve("cluster");
        List<LoopbackTest.Started> pids = List.of();
        try {
            Outcome up = run("cluster", "up", "--dir", dir.toString(), "--lake", "gcs", "--tablet-servers", "1");
            assertThat(up.status()).as(up.out() + up.err()).isEqualTo(Main.CONSISTENT);
            Matcher m = Pattern.compile("--fluss (127\\.0\\.0\\.1:\\d+) --warehouse (gs://tierproof/warehouse)"
                    + " --conf (\\S+gcs\\.properties) --flink 127\\.0\\.0\\.1:\\d+\\n").matcher(up.out());
            assertThat(m.find()).as(up.out()).isTrue();
            String warehouse = m.group(2);
            String conf = m.group(3);
            assertThat(up.out()).containsPattern("gcs +: 127\\.0\\.0\\.1:\\d+, pid \\d+, running")
                    .doesNotContain("NOT RUNNING");
            pids = LoopbackTest.clusterOnLoopback(up.out(), 6);

            // Proved on the multi-process cluster: its Flink session cluster tiers into GCS and reads from it.
            Outcome proved = run("streamhouse", "--cluster", dir.toString(), "--random", "40", "--keys", "8");
            assertThat(proved.status()).as(proved.out() + proved.err()).isEqualTo(Main.CONSISTENT);
            assertThat(proved.out()).contains("tiered into      : Paimon fluss.accounts in " + warehouse)
                    .contains("every write acknowledged");

            // A user's own GCS by address (its settings in --conf), with tierproof's embedded Fluss and Flink.
            Outcome embedded = run("streamhouse", "--warehouse", warehouse + "-theirs", "--conf", conf, "--random",
                    "30", "--keys", "6");
            assertThat(embedded.status()).as(embedded.out() + embedded.err()).isEqualTo(Main.CONSISTENT);
            assertThat(embedded.out()).contains("in " + warehouse + "-theirs");

            // The cluster's table audited read-only, its lake snapshot read from GCS.
            Outcome audit = run("audit", "--cluster", dir.toString(), "--table", "fluss.accounts");
            assertThat(audit.status()).as(audit.out() + audit.err()).isEqualTo(Main.CONSISTENT);
            assertThat(audit.out()).contains("lake " + warehouse).contains("(tier lag 0)");

            // The emulator keeps its objects in memory: a restart would lose the lake, which no GCS
            // outage does. Refused before anything is made.
            Outcome restart = run("streamhouse", "--cluster", dir.toString(), "--table", "never", "--random", "20",
                    "--faults", "restart-lake@10");
            assertThat(restart.status()).isEqualTo(Main.FAILED);
            assertThat(restart.err()).contains("--faults restart-lake: the cluster's GCS store (fake-gcs-server)"
                    + " keeps its objects in memory").doesNotContain("creating Fluss table");

            // A bucket nobody made: refused, naming the warehouse, before anything is made.
            Outcome refused = run("streamhouse", "--warehouse", "gs://no-such-bucket/wh", "--conf", conf,
                    "--random", "10");
            assertThat(refused.status()).isEqualTo(Main.FAILED);
            assertThat(refused.err()).contains("--warehouse gs://no-such-bucket/wh cannot be written")
                    .contains("404").doesNotContain("creating Fluss table");
        } finally {
            if (Files.exists(dir)) {
                ClusterLogs.keep(dir, "ClusterGcsTest");
                Outcome down = run("cluster", "down", "--dir", dir.toString());
                assertThat(down.status()).as(down.out() + down.err()).isEqualTo(Main.CONSISTENT);
                assertThat(down.out()).contains("gcs (pid").contains("removed " + dir);
            }
        }
        assertThat(Files.exists(dir)).isFalse();
        assertThat(LoopbackTest.stillRunning(pids)).as("processes of the cluster left: of " + pids).isEmpty();
    }
}
