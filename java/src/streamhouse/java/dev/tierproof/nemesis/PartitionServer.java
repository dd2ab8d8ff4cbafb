package dev.tierproof.nemesis;

import java.util.Optional;
import java.util.function.Function;

/**
 * A network fault on one server for the fault's length, then healed: the leader of a bucket the
 * run writes, or ZooKeeper, cut off as its {@link Cut} says. Only on {@code cluster up --network
 * isolated}, whose Fluss servers each have a network namespace of their own.
 */
final class PartitionServer implements Nemesis {
    private final String kind;
    private final Cut cut;
    private final Function<Roles, String> server;
    private final String role;

    private PartitionServer(String kind, Cut cut, Function<Roles, String> server, String role) {
        this.kind = kind;
        this.cut = cut;
        this.server = server;
        this.role = role;
    }

    /** The leader of a bucket the run writes, found when the fault strikes. */
    static PartitionServer leader(String kind, Cut cut) {
        return new PartitionServer(kind, cut, roles -> "tablet-" + roles.leader(), "the leader of a bucket written");
    }

    /** ZooKeeper itself. */
    static PartitionServer zookeeper(String kind, Cut cut) {
        return new PartitionServer(kind, cut, roles -> "zookeeper", "");
    }

    @Override
    public Struck strike(Target target) {
        String part = server.apply(target.roles());
        Runnable heal = target.servers().cut(part, cut);
        String who = part.startsWith("tablet-") ? "tablet server " + part.substring("tablet-".length()) + ", "
                + role : part;
        return new Struck(who + ", " + cut.text(), heal);
    }

    @Override
    public boolean lasts() {
        return true;
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        return deployment.onlyOnClusterUp(kind, "cuts a server's own network", "--network isolated",
                deployment.networkRefusal());
    }
}
