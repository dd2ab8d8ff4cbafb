package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.paimon.LakeLocation;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whether a --warehouse is the one a cluster says it tiers into. */
class RemoteFlussClusterTest {
    @TempDir
    Path tmp;

    @Test
    void theSameWarehouseWhateverItsSpelling() {
        LakeLocation hdfs = LakeLocation.parse("--warehouse", "hdfs://nn:8020/lake/wh", null, Map.of());
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn:8020/lake/wh/", hdfs)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn:8020/lake/other", hdfs)).isFalse();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn2:8020/lake/wh", hdfs)).isFalse();

        LakeLocation local = LakeLocation.local(tmp.resolve("wh"));
        assertThat(RemoteFlussCluster.sameWarehouse(tmp.resolve("wh").toString(), local)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("file://" + tmp.resolve("wh") + "/", local)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse("file:" + tmp.resolve("x/../wh"), local)).isTrue();
        assertThat(RemoteFlussCluster.sameWarehouse(tmp.resolve("other").toString(), local)).isFalse();
        assertThat(RemoteFlussCluster.sameWarehouse("hdfs://nn:8020" + tmp.resolve("wh"), local)).isFalse();
    }

    @Test
    void aConfiguredWarehouseIsSaidWithoutCredentials() {
        assertThat(RemoteFlussCluster.withoutUserInfo("s3://AKID:secret@bucket/wh")).isEqualTo("s3://bucket/wh");
        assertThat(RemoteFlussCluster.withoutUserInfo("hdfs://nn:8020/wh")).isEqualTo("hdfs://nn:8020/wh");
        assertThat(RemoteFlussCluster.withoutUserInfo("/data/wh")).isEqualTo("/data/wh");
    }
}
