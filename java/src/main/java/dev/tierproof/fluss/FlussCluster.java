package dev.tierproof.fluss;

import org.apache.fluss.config.Configuration;

/**
 * A Fluss cluster a proof runs on: the embedded one tierproof starts ({@link LocalFlussCluster}),
 * or one that runs elsewhere ({@link RemoteFlussCluster}: {@code --fluss HOST:PORT}). Faults
 * restart servers, which only an embedded cluster lets tierproof do.
 */
public interface FlussCluster {
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

    /** Stops tablet server {@code id} and starts it again (on its port, or on a new one). */
    void restartTabletServer(int id, boolean samePort);

    /** Stops the coordinator and starts it again on its port. */
    void restartCoordinator();

    /** Stops ZooKeeper and starts it again on its port. */
    void restartZooKeeper();
}
