package dev.tierproof.nemesis;

import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * A tablet server stopped ({@code kill -9} on cluster up's processes) and started again with the
 * same id and data: on its port, or on a new one (a pod back at a new address, which only the
 * embedded cluster does). Which server: tablet server 0, or the leader or a follower of a bucket
 * the run writes.
 */
final class RestartTablet implements Nemesis {
    private final boolean samePort;
    private final ToIntFunction<Target> server;
    private final String role;

    private RestartTablet(boolean samePort, ToIntFunction<Target> server, String role) {
        this.samePort = samePort;
        this.server = server;
        this.role = role;
    }

    /** Tablet server 0, whichever buckets it holds. */
    static RestartTablet first(boolean samePort) {
        return new RestartTablet(samePort, t -> 0, "");
    }

    /** The leader of a bucket the run writes, found when the fault strikes. */
    static RestartTablet leader() {
        return new RestartTablet(true, t -> t.roles().leader(), "the leader of a bucket written");
    }

    /** An in-sync follower of a bucket the run writes, found when the fault strikes. */
    static RestartTablet follower() {
        return new RestartTablet(true, t -> t.roles().follower(), "an in-sync follower of a bucket written");
    }

    @Override
    public Struck strike(Target target) {
        int id = server.applyAsInt(target);
        target.servers().restartTabletServer(id, samePort);
        java.util.List<String> what = new java.util.ArrayList<>();
        if (!role.isEmpty()) {
            what.add("tablet server " + id + ", " + role);
        }
        what.addAll(target.servers().takeNotes());
        return Struck.over(String.join("; ", what));
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        if (!samePort && deployment.cluster() == Deployment.Cluster.CLUSTER_UP) {
            return Optional.of("--faults move-tablet brings a tablet server back on a new port, which only the"
                    + " embedded cluster does: leave --cluster out to run it");
        }
        return Optional.empty();
    }
}
