package dev.tierproof.proof;

import dev.tierproof.fluss.ReplicationWatch;
import dev.tierproof.nemesis.Roles;
import java.time.Duration;

/** The roles of a run's tablet servers as its {@link ReplicationWatch} reads them from Fluss's ZooKeeper state. */
final class ReplicaRoles implements Roles {
    private final ReplicationWatch watch;
    private final Duration bound;

    ReplicaRoles(ReplicationWatch watch, Duration bound) {
        this.watch = watch;
        this.bound = bound;
    }

    @Override
    public int leader() {
        return watch.replication().leaderOfWritten();
    }

    @Override
    public int follower() {
        return watch.replication().followerOfWritten();
    }

    @Override
    public String awaitInSync() {
        try {
            dev.tierproof.report.Availability a = Recovery.judge(watch, bound, bound);
            return a.available() ? "in sync " + a.recoveredMillis() + " ms later" : "NOT " + a.evidence();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new dev.tierproof.core.TierproofException("interrupted while waiting for the replicas to catch up", e);
        }
    }
}
