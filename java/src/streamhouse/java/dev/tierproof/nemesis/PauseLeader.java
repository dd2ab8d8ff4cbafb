package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * The leader of a bucket the run writes stopped ({@code SIGSTOP}) for the fault's length, then
 * continued ({@code SIGCONT}): a long GC pause. Its ZooKeeper session may expire meanwhile while it
 * still believes it leads; the writes go on against it. Only {@code cluster up}'s processes can be
 * stopped so (the embedded cluster's servers share the run's JVM).
 */
final class PauseLeader implements Nemesis {
    @Override
    public Struck strike(Target target) {
        int id = target.leader().getAsInt();
        Runnable resume = target.servers().pauseTabletServer(id);
        return new Struck("tablet server " + id + ", the leader of a bucket written", resume);
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
                ? "pause-leader stops a server process, and a search runs on an embedded cluster, whose servers"
                        + " share its JVM"
                : "--faults pause-leader stops a server process (SIGSTOP), which tierproof does only on the"
                        + " cluster ./build.sh cluster up starts: run it with --cluster DIR");
    }
}
