package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.time.Duration;

/**
 * A server's registration in ZooKeeper: a restarted tablet server is back when its own is, not
 * the killed one's, which lingers until its session expires.
 */
final class Registrations {
    private Registrations() {}

    /** The ZooKeeper session that owns an ephemeral node, or 0 when it is not there. */
    static long registrationOwner(String zookeeper, String path) throws Exception {
        org.apache.zookeeper.ZooKeeper zk = new org.apache.zookeeper.ZooKeeper(zookeeper, 10_000, event -> {});
        try {
            org.apache.zookeeper.data.Stat stat = zk.exists(path, false);
            return stat == null ? 0 : stat.getEphemeralOwner();
        } finally {
            zk.close();
        }
    }

    /**
     * Waits until a session other than {@code before} owns {@code path}; a server that exits first
     * fails the wait with the end of its {@code log}, which says why.
     */
    static void awaitNewRegistration(String zookeeper, String path, long before, ProcessCluster.State.Part part,
            java.nio.file.Path log, Duration deadline) throws Exception {
        long end = System.nanoTime() + deadline.toNanos();
        while (System.nanoTime() < end) {
            if (part.ours().isEmpty()) {
                throw new TierproofException("the restarted server (pid " + part.pid() + ") exited; the end of "
                        + log + ":\n" + String.join("\n", Launcher.tail(log)));
            }
            long owner;
            try {
                owner = registrationOwner(zookeeper, path);
            } catch (Exception notYet) {
                owner = 0;
            }
            if (owner != 0 && owner != before) {
                return;
            }
            Thread.sleep(500);
        }
        throw new TierproofException("the restarted server did not register again (" + path + ") within "
                + deadline.toSeconds() + " s");
    }
}
