package dev.tierproof.deploy;

import dev.tierproof.fluss.FlussCluster;
import java.time.Duration;

/**
 * The cluster {@code ./build.sh cluster up} runs ({@code streamhouse --cluster DIR}): proved on
 * like any cluster tierproof did not start for the run, and its faults are real ones: a server
 * process killed with {@code kill -9} and started again on its port, with its data.
 */
public final class ProcessFlussCluster implements FlussCluster {
    /** A killed server's ZooKeeper session must expire (up to a minute) before its successor registers. */
    private static final Duration RESTART = Duration.ofSeconds(120);
    /** How long a healed server may still take to exit on what the fault did to it. */
    private static final Duration SETTLE = Duration.ofSeconds(5);
    /** Tablet servers whose clock a fault holds skewed now. */
    private final java.util.Set<Integer> skewed = new java.util.HashSet<>();
    private ProcessCluster.State state;
    private final java.util.List<String> notes = new java.util.ArrayList<>();
    /** The tablet servers whose disk a fault holds full now. */
    private final java.util.Set<Integer> diskFull = new java.util.HashSet<>();
    /** The servers a network fault holds cut off now. */
    private final java.util.Set<String> cutOff = new java.util.HashSet<>();

    public ProcessFlussCluster(ProcessCluster.State state) {
        this.state = state;
        healLeftovers();
    }

    /**
     * A run killed while one of its faults held ({@code kill -9}: no shutdown hook ran) left the
     * cluster paused, cut off or on a full disk; the next run heals that first and says so.
     */
    private void healLeftovers() {
        state.parts().forEach((name, part) -> part.ours().filter(h -> dev.tierproof.util.Processes.state(h.pid())
                == 'T').ifPresent(h -> {
                    Launcher.signal("CONT", h.pid());
                    notes.add("continued " + name + ", left stopped by an earlier run");
                }));
        Network.of(state.dir()).ifPresent(net -> net.clearCuts().forEach(c -> notes.add("removed " + c
                + ", left by an earlier run")));
        Disks.clearFillers(state.dir()).forEach(at -> notes.add("freed " + at + ", left full by an earlier run"));
        Clocks.reset(state.dir()).forEach(part -> notes.add("set " + part + "'s clock true, left skewed by an earlier"
                + " run"));
    }

    @Override
    public java.util.Optional<ProcessHandle> jobManager() {
        return java.util.Optional.ofNullable(state.parts().get("jobmanager")).flatMap(ProcessCluster.State.Part::ours);
    }

    @Override
    public java.util.List<java.nio.file.Path> tabletServerLogs() {
        return state.parts().keySet().stream().filter(name -> name.startsWith("tablet-")).sorted()
                .map(name -> state.dir().resolve("logs").resolve(name + ".log")).toList();
    }

    @Override
    public String bootstrapServers() {
        return state.fluss();
    }

    @Override
    public boolean startedForThisRun() {
        return false;
    }

    /**
     * What the coordinator's own log says: it logs {@code New table: DB.T with id N} at INFO when
     * it takes a table in (cluster up's Fluss servers log at INFO). Empty when its log has no INFO
     * line at all: a coordinator that does not say.
     */
    @Override
    public java.util.Optional<Boolean> coordinatorKnows(org.apache.fluss.metadata.TablePath path, long tableId) {
        java.nio.file.Path log = state.dir().resolve("logs").resolve("coordinator.log");
        try {
            String text = java.nio.file.Files.readString(log);
            if (text.contains("New table: " + path + " with id " + tableId + ",")) {
                return java.util.Optional.of(true);
            }
            return text.contains(" INFO ") ? java.util.Optional.of(false) : java.util.Optional.empty();
        } catch (java.io.IOException e) {
            return java.util.Optional.empty();
        }
    }

    @Override
    public synchronized void restartTabletServer(int id, boolean samePort) {
        if (!samePort) {
            throw new IllegalArgumentException("move-tablet brings a tablet server back on a new port, which only the"
                    + " embedded cluster does: the cluster's servers keep their ports");
        }
        refuseWhileFull(id, "restart");
        state = PartRestart.killed(state, "tablet-" + id, RESTART, notes::add);
    }

    /**
     * A server cannot start on a full disk (it stops again at once): a schedule that restarts one
     * while fill-leader-disk holds on it is an error of the run, refused before anything is done.
     */
    private void refuseWhileFull(int id, String what) {
        if (diskFull.contains(id)) {
            throw new dev.tierproof.run.RunError("the schedule would " + what + " tablet server " + id + " while its"
                    + " disk is full (fill-leader-disk holds on it): a server cannot start on a full disk, so that is"
                    + " no fault a cluster meets; refused, not struck");
        }
    }

    @Override
    public synchronized int tabletServerCount() {
        return (int) state.parts().keySet().stream().filter(n -> n.startsWith("tablet-")).count();
    }

    /** {@code SIGTERM}: Fluss's shutdown hook closes the server, which is a controlled shutdown in 0.9.1. */
    @Override
    public synchronized void rollTabletServer(int id) {
        // Every server before the first: a roll that stopped halfway would leave the cluster mid-upgrade.
        for (int any : diskFull) {
            refuseWhileFull(any, "roll (with the others)");
        }
        state = PartRestart.stopped(state, "tablet-" + id, RESTART, notes::add);
    }

    @Override
    public java.util.Optional<String> zookeeper() {
        return java.util.Optional.of(state.zookeeper());
    }

    /** What tablet server 0's {@code server.yaml} sets ({@code key: value} lines, as cluster up writes them). */
    @Override
    public java.util.Map<String, String> serverSettings() {
        java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
        try {
            for (String line : java.nio.file.Files.readAllLines(state.dir().resolve("conf").resolve("tablet-0")
                    .resolve("server.yaml"))) {
                int colon = line.indexOf(": ");
                if (colon > 0 && !line.startsWith("#")) {
                    settings.put(line.substring(0, colon).trim(), line.substring(colon + 2).trim());
                }
            }
        } catch (java.io.IOException e) {
            return java.util.Map.of();
        }
        return settings;
    }

    @Override
    public synchronized java.util.List<String> takeNotes() {
        java.util.List<String> taken = java.util.List.copyOf(notes);
        notes.clear();
        return taken;
    }

    @Override
    public synchronized Runnable cut(String part, dev.tierproof.nemesis.Cut cut) {
        Network net = Network.of(state.dir()).orElseThrow(() -> new IllegalArgumentException(
                ProcessCluster.networkRefusal(state).orElse("the cluster has no network of its own")));
        if (!cutOff.add(part)) {
            throw new dev.tierproof.run.RunError("the schedule would cut " + part + " off while another network"
                    + " fault holds on it: overlapping cuts of one server are refused, not struck (healing one would"
                    + " end the other)");
        }
        try {
            Runnable heal = net.cut(part, cut, state.zookeeper());
            return () -> {
                heal.run();
                synchronized (this) {
                    cutOff.remove(part);
                }
            };
        } catch (RuntimeException e) {
            cutOff.remove(part);
            throw e;
        }
    }

    @Override
    public synchronized Runnable skewClock(int id, java.time.Duration offset) {
        ProcessCluster.clockRefusal(state).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        if (!skewed.add(id)) {
            throw new dev.tierproof.run.RunError("the schedule would move tablet server " + id + "'s clock while another"
                    + " clock fault holds on it: overlapping clock faults on one server are refused, not struck (healing"
                    + " one would end the other)");
        }
        // Armed before the clock moves: a JVM that ends in between still sets it true.
        Runnable heal;
        try {
            heal = HealOnExit.arm("clock-tablet-" + id, Clocks.trueAgain(state.dir(), "tablet-" + id));
            try {
                Clocks.move(state.dir(), "tablet-" + id, offset);
            } catch (RuntimeException e) {
                heal.run();
                throw e;
            }
        } catch (RuntimeException e) {
            skewed.remove(id);
            throw e;
        }
        return () -> {
            heal.run();
            synchronized (this) {
                skewed.remove(id);
            }
        };
    }

    @Override
    public synchronized Runnable fillDisk(int id) {
        ProcessCluster.diskRefusal(state).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        if (diskFull.contains(id)) {
            throw new dev.tierproof.run.RunError("the schedule would fill tablet server " + id + "'s disk while it is"
                    + " full already: overlapping fills of one disk are refused, not struck");
        }
        Runnable free = Disks.fill(state.dir().resolve("tablet-" + id).toAbsolutePath());
        diskFull.add(id);
        return () -> {
            free.run();
            synchronized (this) {
                diskFull.remove(id);
            }
            startIfExited("tablet-" + id, "exited on its full disk (Fluss stops a server on a fatal I/O error)");
        };
    }

    /**
     * Starts part {@code name} again, once its fault has healed, if it exited meanwhile (or exits
     * within {@link #SETTLE}: a fatal error's shutdown takes a moment), as an orchestrator would.
     */
    private synchronized void startIfExited(String name, String why) {
        long end = System.nanoTime() + SETTLE.toNanos();
        while (state.parts().get(name).alive() && System.nanoTime() < end) {
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (!state.parts().get(name).alive()) {
            notes.add(name + " " + why + "; started again once healed, as an orchestrator would");
            state = PartRestart.killed(state, name, RESTART, notes::add);
        }
    }

    @Override
    public synchronized Runnable pauseTabletServer(int id) {
        return ProcessCluster.pause(state, "tablet-" + id);
    }

    @Override
    public synchronized void restartCoordinator() {
        state = ProcessCluster.restart(state, "coordinator", RESTART);
    }

    @Override
    public synchronized void restartZooKeeper() {
        state = ProcessCluster.restart(state, "zookeeper", RESTART);
    }

    @Override
    public synchronized void restartLake() {
        try {
            state = ProcessCluster.restartLake(state, RESTART);
        } finally {
            // A restart that failed halfway wrote what it had started: keep to the state file.
            state = ProcessCluster.read(state.dir()).orElse(state);
        }
    }
}
