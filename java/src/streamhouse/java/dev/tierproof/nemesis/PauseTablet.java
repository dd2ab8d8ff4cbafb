package dev.tierproof.nemesis;

import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * A tablet server stopped ({@code SIGSTOP}) for the fault's length, then continued
 * ({@code SIGCONT}): a long GC pause. The leader of a bucket the run writes (its ZooKeeper session
 * may expire meanwhile while it still believes it leads; the writes go on against it), or one of
 * its in-sync followers (it drops out of the ISR and must catch up). Only {@code cluster up}'s
 * processes can be stopped so (the embedded cluster's servers share the run's JVM).
 */
final class PauseTablet implements Nemesis {
    private final String kind;
    private final String role;
    private final ToIntFunction<Roles> server;

    private PauseTablet(String kind, String role, ToIntFunction<Roles> server) {
        this.kind = kind;
        this.role = role;
        this.server = server;
    }

    static PauseTablet leader() {
        return new PauseTablet("pause-leader", "the leader of a bucket written", Roles::leader);
    }

    static PauseTablet follower() {
        return new PauseTablet("pause-follower", "an in-sync follower of a bucket written", Roles::follower);
    }

    @Override
    public Struck strike(Target target) {
        int id = server.applyAsInt(target.roles());
        Runnable resume = target.servers().pauseTabletServer(id);
        return new Struck("tablet server " + id + ", " + role, resume);
    }

    @Override
    public boolean lasts() {
        return true;
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        if (deployment.cluster() == Deployment.Cluster.CLUSTER_UP) {
            return Optional.empty();
        }
        return Optional.of(deployment.searching()
                ? kind + " stops a server process, and a search runs on an embedded cluster, whose servers"
                        + " share its JVM"
                : "--faults " + kind + " stops a server process (SIGSTOP), which tierproof does only on the"
                        + " cluster ./build.sh cluster up starts: run it with --cluster DIR");
    }
}
