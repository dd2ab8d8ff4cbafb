package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.paimon.LakeLocation;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether a --warehouse is the one a cluster says it tiers into. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class RemoteFlussClusterTest {
    @TempDir
    Path tmp;

    @Test
    void theSameWarehouseWhateverItsSpelling() {
        LakeLocation hdfs = LakeLocation.parse("--warehouse", "hdfs://nn:8020/lake/wh", null, Map.of());
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn:8020/lake/wh/", hdfs)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn:8020/lake/other", hdfs)).isFalse();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn2:8020/lake/wh", hdfs)).isFalse();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://NN/lake/wh", hdfs)).as("8020 is HDFS's default").isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn:9000/lake/wh", hdfs)).isFalse();
        LakeLocation s3 = LakeLocation.parse("--warehouse", "s3://bucket1/wh", null,
                Map.of("AWS_ACCESS_KEY_ID", "A", "AWS_SECRET_ACCESS_KEY", "S"));
        assertThat(RemoteFlussCluster.sameWarehouse("s3a://bucket1/wh/", s3)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("s3://bucket2/wh", s3)).isFalse();

        LakeLocation local = LakeLocation.local(tmp.resolve("wh"));
        assertThat(RemoteFlussCluster.sameWarehouse(tmp.resolve("wh").toString(), local)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("file://" + tmp.resolve("wh") + "/", local)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("file:" + tmp.resolve("x/../wh"), local)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn:8020" + tmp.resolve("wh"), local)).isFalse();
        assertThat(RemoteFlussCluster.sameWarehouse("relative/wh", local)).isFalse();
    }

    @Test
    void aDirectoryIsTheSameThroughLinksAndAnotherOneHereIsNot() throws Exception {
        java.nio.file.Files.createDirectories(tmp.resolve("wh"));
        java.nio.file.Files.createDirectories(tmp.resolve("other"));
        java.nio.file.Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("wh"));
        LakeLocation local = LakeLocation.local(tmp.resolve("wh"));
        assertThat(RemoteFlussCluster.sameWarehouse(tmp.resolve("link").toString(), local)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse(tmp.resolve("other").toString(), local)).isFalse();
        // A path that does not exist here may be the servers' own view of it (a container's mount).
        assertThat(RemoteFlussCluster.sameWarehouse("/mnt/lake/wh", local)).isTrue();
    }

    @Test
    void aConfiguredWarehouseIsSaidWithoutCredentials() {
        assertThat(RemoteFlussCluster.withoutUserInfo("s3://AKID:secret@bucket/wh")).isEqualTo("s3://bucket/wh");
        assertThat(RemoteFlussCluster.withoutUserInfo("hdfs://nn:8020/wh")).isEqualTo("hdfs://nn:8020/wh");
        assertThat(RemoteFlussCluster.withoutUserInfo("/data/wh")).isEqualTo("/data/wh");
    }
}
