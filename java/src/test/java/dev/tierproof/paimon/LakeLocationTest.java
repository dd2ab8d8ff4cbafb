package dev.tierproof.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a warehouse is: what is accepted, what is refused (naming the value), and that secrets stay unsaid. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class LakeLocationTest {
    private static final Map<String, String> KEYS = Map.of("AWS_ACCESS_KEY_ID", "AKIDTEST",
            "AWS_SECRET_ACCESS_KEY", "very-secret-value", "AWS_ENDPOINT_URL", "http://127.0.0.1:9000");

    @TempDir
    Path tmp;

    @Test
    void aDirectoryIsLocalAndAbsolute() {
        LakeLocation lake = LakeLocation.parse("--warehouse", "rel/wh", null, Map.of());
        assertThat(lake.isLocal()).isTrue();
        assertThat(lake.directory().isAbsolute() && lake.directory().endsWith(Path.of("rel/wh"))).isTrue();
        assertThat(lake.catalogOptions()).containsOnlyKeys("warehouse");
        assertThat(lake.flussClusterOptions()).containsEntry("datalake.format", "paimon")
                .containsEntry("datalake.paimon.metastore", "filesystem")
                .containsEntry("datalake.paimon.warehouse", lake.directory().toString());
    }

    @Test
    void s3TakesItsSettingsFromTheEnvironmentAndNeverSaysTheSecret() {
        LakeLocation lake = LakeLocation.parse("--warehouse", "s3://my-bucket/a/wh/", null, KEYS);
        assertThat(lake.isLocal()).isFalse();
        assertThat(lake.warehouse()).isEqualTo("s3://my-bucket/a/wh");
        assertThat(lake.catalogOptions()).containsEntry("warehouse", "s3://my-bucket/a/wh")
                .containsEntry("s3.access-key", "AKIDTEST").containsEntry("s3.secret-key", "very-secret-value")
                .containsEntry("s3.endpoint", "http://127.0.0.1:9000").containsEntry("s3.path.style.access", "true");
        assertThat(lake.catalogOptions()).containsEntry("s3.retry.limit", "2");
        assertThat(lake.flussClusterOptions()).doesNotContainKey("datalake.paimon.s3.retry.limit")
                .containsEntry("datalake.paimon.s3.secret-key", "very-secret-value")
                .containsEntry("datalake.paimon.warehouse", "s3://my-bucket/a/wh");
        assertThat(lake.toString()).isEqualTo("s3://my-bucket/a/wh").doesNotContain("secret");
        assertThatThrownBy(lake::directory).hasMessageContaining("s3://my-bucket/a/wh is not a local directory");
    }

    @Test
    void temporaryCredentialsTakeTheirSessionTokenAlongButNeverToAnotherKey() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(KEYS);
        env.put("AWS_SESSION_TOKEN", "session-token-value");
        LakeLocation lake = LakeLocation.parse("--warehouse", "s3://bucket1/wh", null, env);
        assertThat(lake.fileSystemSettings()).containsEntry("s3.session.token", "session-token-value")
                .containsEntry("s3.access-key", "AKIDTEST");
        assertThat(lake.flussClusterOptions()).containsEntry("datalake.paimon.s3.session.token", "session-token-value");
        assertThat(lake.toString()).doesNotContain("session-token-value");
        assertThat(LakeLocation.parse("--warehouse", "s3://bucket1/wh", null, KEYS).fileSystemSettings())
                .doesNotContainKey("s3.session.token");

        Path conf = tmp.resolve("other-key.properties");
        Files.writeString(conf, "s3.access-key=FROMFILE\ns3.secret-key=file-secret\n");
        assertThat(LakeLocation.parse("--warehouse", "s3://bucket1/wh", conf, env).fileSystemSettings())
                .as("a key pair of the file's own does not take the environment's token")
                .doesNotContainKey("s3.session.token").containsEntry("s3.access-key", "FROMFILE");
        Files.writeString(conf, "s3.access-key=FROMFILE\ns3.secret-key=file-secret\ns3.session.token=file-token\n");
        assertThat(LakeLocation.parse("--warehouse", "s3://bucket1/wh", conf, env).fileSystemSettings())
                .containsEntry("s3.session.token", "file-token");
        Files.writeString(conf, "s3.endpoint=http://h:1\n");
        assertThat(LakeLocation.parse("--warehouse", "s3://bucket1/wh", conf, env).fileSystemSettings())
                .as("the environment's key pair keeps its token").containsEntry("s3.session.token",
                        "session-token-value");
    }

    @Test
    void aConfFileOverridesTheEnvironmentAndHoldsOnlyS3Settings() throws Exception {
        Path conf = tmp.resolve("s3.properties");
        Files.writeString(conf, "s3.access-key=FROMFILE\ns3.secret-key=file-secret\ns3.endpoint=http://h:1\n");
        LakeLocation lake = LakeLocation.parse("--warehouse", "s3://bucket1/wh", conf, KEYS);
        assertThat(lake.fileSystemSettings()).containsEntry("s3.access-key", "FROMFILE")
                .containsEntry("s3.secret-key", "file-secret").containsEntry("s3.endpoint", "http://h:1");

        Path odd = tmp.resolve("odd.properties");
        Files.writeString(odd, "s3.access-key=A\nfs.defaultFS=hdfs://elsewhere\n");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "s3://bucket1/wh", odd, KEYS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--conf " + odd + ": the key fs.defaultFS is not an S3 setting");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "s3://bucket1/wh", tmp.resolve("none"), KEYS))
                .hasMessageContaining("--conf " + tmp.resolve("none") + " cannot be read");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "local/dir", conf, KEYS))
                .hasMessageContaining("but --warehouse local/dir is a local directory");
    }

    @Test
    void badLocationsAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "oss://bucket1/wh", null, KEYS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--warehouse oss://bucket1/wh: the scheme oss is not one tierproof runs");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "s3://Bad_Bucket/wh", null, KEYS))
                .hasMessageContaining("the bucket Bad_Bucket is not a valid S3 bucket name");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "s3:///wh", null, KEYS))
                .hasMessageContaining("--warehouse s3:///wh: no bucket");
        for (String escape : new String[] {"s3://bucket1/a/../b", "s3://bucket1/a//b", "s3://bucket1/./a",
                "s3://bucket1/.hidden"}) {
            assertThatThrownBy(() -> LakeLocation.parse("--warehouse", escape, null, KEYS)).as(escape)
                    .hasMessageContaining("--warehouse " + escape + ": the path segment");
        }
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "s3://bucket1/wh", null, Map.of()))
                .hasMessageContaining("--warehouse s3://bucket1/wh needs credentials");
    }

    @Test
    void anHdfsWarehouseIsReachedWithTierproofsOwnCallsBoundedAndTheDeploymentsNot() throws Exception {
        LakeLocation lake = LakeLocation.parse("--warehouse", "hdfs://namenode-1.example:8020/lake/wh/", null, KEYS);
        assertThat(lake.isLocal()).isFalse();
        assertThat(lake.warehouse()).isEqualTo("hdfs://namenode-1.example:8020/lake/wh");
        // The S3 variables of the environment are not an HDFS lake's: nothing of them is taken.
        assertThat(lake.fileSystemSettings()).isEmpty();
        // tierproof's own calls are bounded, on a client of their own (not Hadoop's shared one).
        assertThat(lake.catalogOptions()).containsEntry("warehouse", "hdfs://namenode-1.example:8020/lake/wh")
                .containsEntry("hadoop.fs.hdfs.impl.disable.cache", "true")
                .containsEntry("hadoop.ipc.client.connect.max.retries.on.timeouts", "2")
                .containsEntry("hadoop.dfs.client.retry.policy.spec", "300,1");
        org.apache.hadoop.conf.Configuration own = PaimonLake.context(lake).hadoopConf();
        assertThat(own.get("ipc.client.connect.timeout")).isEqualTo("5000");
        assertThat(own.getBoolean("fs.hdfs.impl.disable.cache", false)).isTrue();
        assertThat(own.getBoolean("dfs.client.retry.policy.enabled", false)).isTrue();
        // The deployment (servers, tiering job) runs with the store's own retries, as users run it.
        assertThat(lake.flussClusterOptions()).containsEntry("datalake.paimon.warehouse", lake.warehouse())
                .doesNotContainKey("datalake.paimon.hadoop.ipc.client.connect.max.retries");
        assertThat(lake.deploymentOptions()).containsOnlyKeys("warehouse");
        assertThat(LakeLocation.parse("--warehouse", "hdfs://nameservice1/wh", null, Map.of()).warehouse())
                .as("an HA nameservice (HADOOP_CONF_DIR names its NameNodes)").isEqualTo("hdfs://nameservice1/wh");

        Path conf = tmp.resolve("hdfs.properties");
        Files.writeString(conf, "hadoop.dfs.client.use.datanode.hostname=true\nhadoop.ipc.client.connect.timeout=9000\n");
        LakeLocation given = LakeLocation.parse("--warehouse", "hdfs://10.0.0.7:9000/wh", conf, Map.of());
        assertThat(given.fileSystemSettings()).containsEntry("hadoop.dfs.client.use.datanode.hostname", "true");
        // As Hadoop's client gets them from Paimon: the prefix gone.
        org.apache.hadoop.conf.Configuration hadoop = PaimonLake.context(given).hadoopConf();
        assertThat(hadoop.get("ipc.client.connect.timeout")).isEqualTo("9000");
        assertThat(hadoop.get("dfs.client.use.datanode.hostname")).isEqualTo("true");
        Files.writeString(conf, "s3.endpoint=http://127.0.0.1:9000\n");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "hdfs://10.0.0.7:9000/wh", conf, Map.of()))
                .hasMessageContaining("the key s3.endpoint is not a Hadoop setting");
    }

    @Test
    void aGcsWarehouseTakesTheConnectorsSettingsAndTheEnvironmentsKeyFile() throws Exception {
        LakeLocation lake = LakeLocation.parse("--warehouse", "gs://my_bucket-1/lake/wh/", null, KEYS);
        assertThat(lake.isLocal()).isFalse();
        assertThat(lake.warehouse()).isEqualTo("gs://my_bucket-1/lake/wh");
        // Neither the S3 variables nor a default account: the connector's own default (the machine's).
        assertThat(lake.fileSystemSettings()).isEmpty();
        // tierproof's own calls bounded, on a client of their own; the deployment's not.
        assertThat(lake.catalogOptions()).containsEntry("hadoop.fs.gs.impl.disable.cache", "true")
                .containsEntry("hadoop.fs.gs.http.max.retry", "2");
        assertThat(PaimonLake.context(lake).hadoopConf().get("fs.gs.http.max.retry")).isEqualTo("2");
        assertThat(lake.deploymentOptions()).containsOnlyKeys("warehouse");

        Map<String, String> env = Map.of("GOOGLE_APPLICATION_CREDENTIALS", "/keys/sa.json");
        assertThat(LakeLocation.parse("--warehouse", "gs://bucket1/wh", null, env).fileSystemSettings())
                .as("read as Google's libraries read it, wherever the deployment runs")
                .containsOnly(Map.entry("hadoop.fs.gs.auth.type", "APPLICATION_DEFAULT"));
        Path conf = tmp.resolve("gcs.properties");
        Files.writeString(conf, "hadoop.fs.gs.auth.type=UNAUTHENTICATED\n"
                + "hadoop.fs.gs.storage.root.url=http://127.0.0.1:4443/\n");
        LakeLocation given = LakeLocation.parse("--warehouse", "gs://bucket1/wh", conf, env);
        assertThat(given.fileSystemSettings()).as("the file's account, not the environment's")
                .containsEntry("hadoop.fs.gs.auth.type", "UNAUTHENTICATED");
        // As the connector gets them from Paimon: the prefix gone.
        assertThat(PaimonLake.context(given).hadoopConf().get("fs.gs.storage.root.url"))
                .isEqualTo("http://127.0.0.1:4443/");
        assertThat(given.toString()).isEqualTo("gs://bucket1/wh");

        Files.writeString(conf, "hadoop.fs.defaultFS=hdfs://elsewhere\n");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "gs://bucket1/wh", conf, Map.of()))
                .hasMessageContaining("the key hadoop.fs.defaultFS is not a GCS connector setting");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "gs://Bad.Bucket/wh", null, Map.of()))
                .hasMessageContaining("--warehouse gs://Bad.Bucket/wh: the bucket Bad.Bucket is not a GCS bucket name");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "gs:///wh", null, Map.of()))
                .hasMessageContaining("--warehouse gs:///wh: no bucket");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "gs://bucket1/", null, Map.of()))
                .as("the connector would make a mistyped bucket")
                .hasMessageContaining("--warehouse gs://bucket1/: no path");
        for (String escape : new String[] {"gs://bucket1/a/../b", "gs://bucket1/a//b", "gs://bucket1/.x"}) {
            assertThatThrownBy(() -> LakeLocation.parse("--warehouse", escape, null, Map.of())).as(escape)
                    .hasMessageContaining("--warehouse " + escape + ": the path segment");
        }
    }

    @Test
    void badHdfsLocationsAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "hdfs:///wh", null, Map.of()))
                .hasMessageContaining("--warehouse hdfs:///wh: no name node");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "hdfs://nn:99999/wh", null, Map.of()))
                .hasMessageContaining("the name node nn:99999 is not HOST or HOST:PORT");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "hdfs://user@nn:8020/wh", null, Map.of()))
                .hasMessageContaining("the name node user@nn:8020 is not HOST or HOST:PORT");
        assertThatThrownBy(() -> LakeLocation.parse("--warehouse", "hdfs://nn:8020/", null, Map.of()))
                .hasMessageContaining("--warehouse hdfs://nn:8020/: no path");
        for (String escape : new String[] {"hdfs://nn:8020/a/../b", "hdfs://nn:8020/a//b", "hdfs://nn/./a",
                "hdfs://nn/.Trash", "hdfs://nn/a b"}) {
            assertThatThrownBy(() -> LakeLocation.parse("--warehouse", escape, null, Map.of())).as(escape)
                    .hasMessageContaining("--warehouse " + escape + ": the path segment");
        }
    }
}
