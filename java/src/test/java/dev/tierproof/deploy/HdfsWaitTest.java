package dev.tierproof.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tierproof.core.TierproofException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wait for HDFS's DataNode says why it failed: a DataNode that exited fails it at once with
 * its log's end, and the NameNode's answer comes in brief, not as its whole JMX bean.
 */
@Tag("quick") // no servers: a NameNode address where nothing listens, a DataNode that has ended
class HdfsWaitTest {
    @Test
    void aDataNodeThatExitedFailsTheWaitWithItsLog(@TempDir Path dir) throws Exception {
        Path conf = Files.createDirectories(dir.resolve("conf").resolve(Hdfs.NAMENODE_PART));
        Files.writeString(conf.resolve("hadoop.xml"), "<configuration>"
                + "<property><name>dfs.namenode.http-address</name><value>127.0.0.1:1</value></property>"
                + "<property><name>dfs.namenode.rpc-address</name><value>127.0.0.1:2</value></property>"
                + "</configuration>");
        Files.createDirectories(dir.resolve("logs"));
        Files.writeString(dir.resolve("logs").resolve(Hdfs.DATANODE_PART + ".log"),
                "starting DataNode\njava.net.BindException: Address already in use\n");
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        long started = System.nanoTime();
        assertThatThrownBy(() -> Hdfs.awaitWritable(dir, Duration.ofSeconds(60), ended.pid()))
                .isInstanceOf(TierproofException.class)
                .hasMessageContaining("HDFS's DataNode (pid " + ended.pid() + ") exited before the NameNode saw it")
                .hasMessageContaining("java.net.BindException: Address already in use");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("at once, not after the 60 s")
                .isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void theNameNodesAnswerComesInBrief() {
        String bean = "HTTP 200: {\n  \"beans\" : [ {\n    \"FSState\" : \"Operational\",\n"
                + "    \"NumLiveDataNodes\" : 0,\n    \"CapacityTotal\" : 0 } ] }";
        assertThat(Hdfs.brief(bean)).isEqualTo("live DataNodes 0, state Operational");
        assertThat(Hdfs.brief("java.net.ConnectException")).isEqualTo("java.net.ConnectException");
    }
}
