package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * Tablet server 0 stopped and started again with the same id and data: on its port, or on a new
 * one (a pod back at a new address, which only the embedded cluster does).
 */
final class RestartTablet implements Nemesis {
    private final boolean samePort;

    RestartTablet(boolean samePort) {
        this.samePort = samePort;
    }

    @Override
    public void strike(Target target) {
        target.servers().restartTabletServer(0, samePort);
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        if (!samePort && deployment.cluster() == Deployment.Cluster.CLUSTER_UP) {
            return Optional.of("--faults move-tablet brings a tablet server back on a new port, which only the"
                    + " embedded cluster does: leave --cluster out to run it");
        }
        return Optional.empty();
    }
}
