package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.List;

/**
 * A server's registration in ZooKeeper: a restarted tablet server is back when its own is, not
 * the killed one's, which lingers until its session expires.
 */
final class Registrations {
    /** What Fluss 0.9.1's server logs when it stops trying to register (ServerBase: 60 s, every 3 s). */
    static final String GAVE_UP = "register to Zookeeper exceeded total retry time";

    /** A restarted server that exited because it gave up registering: its id was still taken. */
    static final class GaveUp extends TierproofException {
        GaveUp(String message) {
            super(message);
        }
    }

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
     * fails the wait with the end of its {@code log} (what it wrote past {@code logStart}), which
     * says why.
     */
    static void awaitNewRegistration(String zookeeper, String path, long before, ProcessCluster.State.Part part,
            java.nio.file.Path log, long logStart, Duration deadline) throws Exception {
        long end = System.nanoTime() + deadline.toNanos();
        while (System.nanoTime() < end) {
            if (part.ours().isEmpty()) {
                List<String> tail = Launcher.tail(log);
                if (since(log, logStart).contains(GAVE_UP)) {
                    throw new GaveUp("Fluss gave up registering it in ZooKeeper (\"" + GAVE_UP + "\") while its"
                            + " killed predecessor's session lingered");
                }
                throw new TierproofException("the restarted server (pid " + part.pid() + ") exited; the end of "
                        + log + ":\n" + String.join("\n", tail));
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

    /** What {@code log} holds past byte {@code start} (the restarted server's own lines). */
    static String since(java.nio.file.Path log, long start) {
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(log.toFile(), "r")) {
            long from = Math.min(start, f.length());
            byte[] rest = new byte[(int) Math.min(f.length() - from, 16 << 20)];
            f.seek(from);
            f.readFully(rest);
            return new String(rest, java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "";
        }
    }

    /** How long {@code log} is now: where a server started next begins its lines. */
    static long sizeOf(java.nio.file.Path log) {
        try {
            return java.nio.file.Files.size(log);
        } catch (java.io.IOException e) {
            return 0;
        }
    }
}
