package dev.tierproof.nemesis;

/**
 * The tablet servers a fault names by role, read from Fluss's metadata at the moment it strikes:
 * never "server 0" by accident. A cluster whose replication tierproof cannot read (one elsewhere)
 * knows the leader only.
 */
@FunctionalInterface
public interface Roles {
    /** The tablet server that leads a bucket the run writes. */
    int leader();

    /** A tablet server in the in-sync set of a bucket the run writes that does not lead it. */
    default int follower() {
        throw new dev.tierproof.run.RunError("tierproof cannot read which replicas of this cluster's buckets are in"
                + " sync, so it has no follower to strike");
    }

    /**
     * Waits, within a bound of the cluster's own settings, until every bucket the run writes is led
     * and has every replica in sync again, as an operator waits between two restarts of a rolling
     * upgrade; says how long that took ({@code in sync 1200 ms later}), or, when the bound passed
     * first, what each bucket lacked then. Without a view of the replicas it does not wait.
     */
    default String awaitInSync() {
        return "not awaited: tierproof cannot read this cluster's in-sync replicas";
    }
}
