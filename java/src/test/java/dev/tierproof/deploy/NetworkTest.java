package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster's own network leaves nothing behind: what {@code cluster up --network isolated} made
 * for a cluster that is gone (its JVM killed before its state file) is swept by the next start,
 * and a network still owned by a cluster is left alone.
 */
@Tag("quick") // no servers: namespaces and a bridge only (root, as CI and cluster up --network isolated need)
class NetworkTest {
    @TempDir
    Path tmp;

    @Test
    void aGoneClustersNetworkIsSweptAndALiveOnesIsKept() throws Exception {
        Network.checkPrivileges();
        Path gone = Files.createDirectories(tmp.resolve("gone"));
        Network orphan = Network.create(gone);
        orphan.add("tablet-0");
        Path live = Files.createDirectories(tmp.resolve("live"));
        Network kept = Network.create(live);
        kept.add("tablet-0");
        Files.writeString(live.resolve(ProcessCluster.STATE), "# a cluster's state\n");
        try {
            assertThat(Launcher.exec("ip", "netns", "list")).contains(orphan.namespace("tablet-0"),
                    kept.namespace("tablet-0"));
            // Both are being made by a live JVM (this one): a sweep leaves them alone.
            Network.sweep();
            assertThat(Launcher.exec("ip", "netns", "list")).contains(orphan.namespace("tablet-0"));
            // The gone cluster: its JVM was killed mid-start, before its state file; its directory removed since.
            Process ended = new ProcessBuilder("true").start();
            ended.waitFor();
            Path note = Network.OWNERS.file(orphan.bridge().substring(3));
            Files.writeString(note, gone + "\n" + ended.pid() + "\n");
            dev.tierproof.util.Directories.deleteRecursively(gone);
            Network.sweep();
            assertThat(Launcher.exec("ip", "netns", "list")).doesNotContain(orphan.namespace("tablet-0"))
                    .contains(kept.namespace("tablet-0"));
            assertThat(Launcher.exec("ip", "link", "show")).doesNotContain(orphan.bridge()).contains(kept.bridge());
            assertThat(Network.OWNERS.file(orphan.bridge().substring(3))).doesNotExist();
        } finally {
            Network.removeFor(live);
        }
        assertThat(Launcher.exec("ip", "netns", "list")).doesNotContain(kept.namespace("tablet-0"));
        assertThat(Launcher.exec("ip", "link", "show")).doesNotContain(kept.bridge());
    }
}
