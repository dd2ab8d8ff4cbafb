package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * The cluster a schedule of faults would strike.
 *
 * @param cluster which kind of cluster
 * @param searching whether a counterexample search runs on it (always an embedded cluster)
 * @param lakeRestartRefusal on {@code cluster up}'s cluster, why its lake's store cannot be
 *     restarted (a store whose restart tierproof does not support), else empty
 * @param networkRefusal on {@code cluster up}'s cluster, why its servers' network cannot be cut
 *     (one started without {@code --network isolated}), else empty
 * @param diskRefusal on {@code cluster up}'s cluster, why its tablet servers' disks cannot be
 *     filled (one started without {@code --tablet-disk}), else empty
 * @param clockRefusal on {@code cluster up}'s cluster, why its tablet servers' clocks cannot be
 *     moved (one started without {@code --clocks}), else empty
 */
public record Deployment(Cluster cluster, boolean searching, Optional<String> lakeRestartRefusal,
        Optional<String> networkRefusal, Optional<String> diskRefusal, Optional<String> clockRefusal) {
    /** Kinds of cluster tierproof strikes: those it started itself. */
    public enum Cluster {
        /** The embedded cluster a run starts in its own JVM. */
        EMBEDDED,
        /** The processes {@code ./build.sh cluster up} started ({@code --cluster DIR}). */
        CLUSTER_UP
    }

    /** The embedded cluster of one proof. */
    public static Deployment embedded() {
        return new Deployment(Cluster.EMBEDDED, false, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** The embedded clusters of a counterexample search. */
    public static Deployment forSearch() {
        return new Deployment(Cluster.EMBEDDED, true, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** {@code cluster up}'s cluster, whose lake's store cannot be restarted for {@code lakeRestartRefusal}. */
    public static Deployment clusterUp(Optional<String> lakeRestartRefusal) {
        return clusterUp(lakeRestartRefusal, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * As {@link #clusterUp(Optional)}, whose servers' network cannot be cut for {@code networkRefusal},
     * whose tablet servers' disks cannot be filled for {@code diskRefusal} and whose clocks cannot be
     * moved for {@code clockRefusal}.
     */
    public static Deployment clusterUp(Optional<String> lakeRestartRefusal, Optional<String> networkRefusal,
            Optional<String> diskRefusal, Optional<String> clockRefusal) {
        return new Deployment(Cluster.CLUSTER_UP, false, lakeRestartRefusal, networkRefusal, diskRefusal,
                clockRefusal);
    }

    /**
     * Why fault {@code kind}, which {@code does} something only {@code cluster up} started with
     * {@code upOption} can take, cannot strike here: not that cluster, or {@code capability} says
     * why this one cannot; empty when it can.
     */
    public Optional<String> onlyOnClusterUp(String kind, String does, String upOption, Optional<String> capability) {
        if (cluster != Cluster.CLUSTER_UP) {
            return Optional.of(searching ? kind + " " + does + ", and a search runs on an embedded cluster, whose"
                    + " servers share its JVM" : "--faults " + kind + " " + does + ", which tierproof does only on the"
                    + " cluster ./build.sh cluster up " + upOption + " starts: run it with --cluster DIR");
        }
        return capability.map(r -> "--faults " + kind + ": " + r);
    }
}
