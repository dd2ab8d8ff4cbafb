package dev.tierproof.nemesis;

/** The servers of a Fluss cluster a nemesis stops and starts again. */
public interface Servers {
    /** Stops tablet server {@code id} and starts it again (on its port, or on a new one). */
    void restartTabletServer(int id, boolean samePort);

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
