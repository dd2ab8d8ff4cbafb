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
    private ProcessCluster.State state;

    public ProcessFlussCluster(ProcessCluster.State state) {
        this.state = state;
    }

    @Override
    public String bootstrapServers() {
        return state.fluss();
    }

    @Override
    public boolean startedForThisRun() {
        return false;
    }

    @Override
    public synchronized void restartTabletServer(int id, boolean samePort) {
        if (!samePort) {
            throw new IllegalArgumentException("move-tablet brings a tablet server back on a new port, which only the"
                    + " embedded cluster does: the cluster's servers keep their ports");
        }
        state = ProcessCluster.restart(state, "tablet-" + id, RESTART);
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
