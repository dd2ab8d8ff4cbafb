package dev.tierproof.fluss;

import dev.tierproof.core.TierproofException;
import dev.tierproof.nemesis.Servers;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.cluster.ServerNode;
import org.apache.fluss.cluster.ServerType;
import org.apache.fluss.config.Configuration;

/**
 * A Fluss cluster a proof runs on: the embedded one tierproof starts ({@link LocalFlussCluster}),
 * or one that runs elsewhere ({@link RemoteFlussCluster}: {@code --fluss HOST:PORT}). Faults
 * restart its {@link Servers}, which only a cluster tierproof started lets it do.
 */
public interface FlussCluster extends Servers {
    /** {@code host:port} of the coordinator, for clients and the Flink catalog. */
    String bootstrapServers();

    /** A client configuration pointing at this cluster. */
    default Configuration clientConfig() {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrapServers());
        return conf;
    }

    /**
     * Whether tierproof started this cluster for this run (and so removes everything in it when
     * the run ends); on any other cluster, a failed run drops the tables it created.
     */
    boolean startedForThisRun();

    /**
     * Whether the coordinator holds table {@code path} (id {@code tableId}) in its state, as far as
     * this cluster can tell; empty when it cannot (a cluster elsewhere). Fluss 0.9.1's coordinator
     * can miss a table created under load ({@link MissedTable}).
     */
    default java.util.Optional<Boolean> coordinatorKnows(org.apache.fluss.metadata.TablePath path, long tableId) {
        return java.util.Optional.empty();
    }

    /**
     * The cluster's ZooKeeper ({@code host:port}) when tierproof knows it (a cluster it started),
     * else empty: who leads a bucket and which replicas are in sync is read there.
     */
    default java.util.Optional<String> zookeeper() {
        return java.util.Optional.empty();
    }

    /**
     * The Flink JobManager that runs this cluster's jobs when tierproof started it beside the
     * servers ({@code cluster up}): a STALLED verdict may read its threads. Empty elsewhere.
     */
    default java.util.Optional<ProcessHandle> jobManager() {
        return java.util.Optional.empty();
    }

    /** The tablet servers' own log files, where tierproof has them in sight (none by default). */
    default java.util.List<java.nio.file.Path> tabletServerLogs() {
        return java.util.List.of();
    }

    /** The settings the tablet servers run with, as far as tierproof knows them (none: Fluss's defaults). */
    default java.util.Map<String, String> serverSettings() {
        return java.util.Map.of();
    }

    /**
     * Waits until a client of the cluster at {@code bootstrap} sees a coordinator and
     * {@code tablets} tablet servers, within {@code deadline}. A connection is refused until a
     * tablet server is alive, and a server may still be starting: each attempt connects anew.
     */
    static void awaitServers(String bootstrap, int tablets, Duration deadline) throws InterruptedException {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrap);
        long end = System.nanoTime() + deadline.toNanos();
        String seen = "no answer yet";
        while (System.nanoTime() < end) {
            try (Connection connection = Clients.open(conf)) {
                List<ServerNode> nodes = connection.getAdmin().getServerNodes().get(5, TimeUnit.SECONDS);
                long up = nodes.stream().filter(n -> n.serverType() == ServerType.TABLET_SERVER).count();
                if (up == tablets && nodes.stream().anyMatch(n -> n.serverType() == ServerType.COORDINATOR)) {
                    return;
                }
                seen = nodes.toString();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                seen = String.valueOf(e.getMessage());
            }
            Thread.sleep(200);
        }
        throw new TierproofException("after " + deadline.toSeconds() + " s a client of " + bootstrap + " sees " + seen
                + "; expected a coordinator and " + tablets + " tablet servers");
    }
}
