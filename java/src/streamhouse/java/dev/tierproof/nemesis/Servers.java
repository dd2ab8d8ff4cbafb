package dev.tierproof.nemesis;

/** The servers of a Fluss cluster a nemesis stops and starts again. */
public interface Servers {
    /** Stops tablet server {@code id} and starts it again (on its port, or on a new one). */
    void restartTabletServer(int id, boolean samePort);

    /** How many tablet servers the cluster runs (ids 0 to count - 1). */
    default int tabletServerCount() {
        throw new IllegalArgumentException("tierproof does not know this cluster's tablet servers");
    }

    /**
     * Stops tablet server {@code id} as an upgrade does (a controlled shutdown: it hands its
     * leaderships over before it exits) and starts it again with its id, data and port.
     */
    default void rollTabletServer(int id) {
        throw new IllegalArgumentException("a rolling restart stops and starts the cluster's tablet servers, which"
                + " tierproof does only on a cluster it started");
    }

    /** Stops the coordinator and starts it again on its port. */
    void restartCoordinator();

    /** Stops ZooKeeper and starts it again on its port. */
    void restartZooKeeper();

    /**
     * Stops tablet server {@code id} ({@code SIGSTOP}) and returns what continues it
     * ({@code SIGCONT}, safe to run twice); only a cluster whose servers are processes of their own.
     */
    default Runnable pauseTabletServer(int id) {
        throw new IllegalArgumentException("pause-leader stops a server process, which tierproof does only on the"
                + " cluster ./build.sh cluster up starts (--cluster DIR)");
    }

    /**
     * Cuts server {@code part} ({@code tablet-1}, {@code zookeeper}) off as {@code cut} says, and
     * returns what heals it (safe to run twice); only a cluster whose servers have network
     * namespaces of their own ({@code cluster up --network isolated}).
     */
    default Runnable cut(String part, Cut cut) {
        throw new IllegalArgumentException("a network fault cuts a server's own network, which tierproof does only"
                + " on the cluster ./build.sh cluster up --network isolated starts (--cluster DIR)");
    }

    /**
     * Fills tablet server {@code id}'s disk to the last byte and returns what frees it (safe to run
     * twice); only a cluster whose tablet servers have disks of its own ({@code --tablet-disk}).
     */
    default Runnable fillDisk(int id) {
        throw new IllegalArgumentException("fill-leader-disk fills a tablet server's own disk, which tierproof does"
                + " only on the cluster ./build.sh cluster up --tablet-disk MIB starts (--cluster DIR)");
    }

    /**
     * Moves tablet server {@code id}'s wall clock by {@code offset} and returns what sets it true
     * again (safe to run twice); only a cluster whose tablet servers have clocks of their own
     * ({@code cluster up --clocks}).
     */
    default Runnable skewClock(int id, java.time.Duration offset) {
        throw new IllegalArgumentException("a clock fault moves a tablet server's own clock, which tierproof does"
                + " only on the cluster ./build.sh cluster up --clocks starts (--cluster DIR)");
    }

    /** What the last faults met that a report should say (a server that had to be started twice), then forgotten. */
    default java.util.List<String> takeNotes() {
        return java.util.List.of();
    }

    /** Kills the lake's store and starts it again with its data (only a cluster that runs one). */
    default void restartLake() {
        throw new IllegalArgumentException("restart-lake kills the lake's store, which tierproof does only on the"
                + " cluster ./build.sh cluster up starts (--cluster DIR)");
    }
}
