package dev.tierproof.cli;

import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.LocalFlussCluster;
import dev.tierproof.paimon.LakeLocation;

/**
 * The servers a Fluss command runs on: a Fluss cluster with its Paimon lake and the Flink that runs
 * the tiering job and the reads, each registered with the run, which stops them at its end.
 */
record Streamhouse(FlussCluster cluster, FlinkEngine engine) {
    /** The most tablet servers an embedded cluster runs (each a few hundred MB of heap and threads). */
    static final int MAX_TABLET_SERVERS = 5;

    /** Starts an embedded one: one tablet server, the lake in {@code warehouse}, a MiniCluster. */
    static Streamhouse start(RunSession session, LakeLocation warehouse) {
        return start(session, warehouse, 1);
    }

    /** Starts an embedded one with {@code tabletServers} tablet servers (a table may keep that many replicas). */
    static Streamhouse start(RunSession session, LakeLocation warehouse, int tabletServers) {
        session.steps().progress().step("starting Fluss (ZooKeeper, coordinator, " + (tabletServers == 1
                ? "tablet server" : tabletServers + " tablet servers") + ") with a Paimon datalake");
        LocalFlussCluster cluster = session.started(LocalFlussCluster.start(tabletServers,
                warehouse.flussClusterOptions(), session.directory().directory("fluss")));
        session.steps().progress().step("Fluss is up at " + cluster.bootstrapServers() + "; starting Flink MiniCluster");
        return new Streamhouse(cluster, miniCluster(session));
    }

    /**
     * A Fluss cluster tierproof did not start for this run ({@code --fluss}, {@code --cluster}), with
     * the jobs on the Flink session cluster at {@code flink} ({@code HOST:PORT} of its REST endpoint),
     * or on a MiniCluster when null; with {@code shipConnectors}, each job takes the Paimon and Fluss
     * connectors along.
     */
    static Streamhouse on(RunSession session, FlussCluster cluster, String flink, boolean shipConnectors) {
        if (flink != null) {
            session.steps().progress().step("connecting to the Fluss cluster at " + cluster.bootstrapServers()
                    + "; jobs go to the Flink session cluster at " + flink
                    + (shipConnectors ? ", each with the Paimon and Fluss connectors (pipeline.jars)" : ""));
            return new Streamhouse(cluster, session.started(FlinkEngine.remote(flink, shipConnectors)));
        }
        session.steps().progress().step("connecting to the Fluss cluster at " + cluster.bootstrapServers()
                + "; starting Flink MiniCluster");
        return new Streamhouse(cluster, miniCluster(session));
    }

    private static FlinkEngine miniCluster(RunSession session) {
        return session.started(FlinkEngine.start(8, session.directory().directory("flink")));
    }
}
