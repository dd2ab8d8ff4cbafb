package dev.tierproof.nemesis;

import java.util.Optional;

/** The lake's store ({@code cluster up}'s SeaweedFS, or HDFS's servers) killed and started again with its data. */
final class RestartLake implements Nemesis {
    @Override
    public Struck strike(Target target) {
        target.servers().restartLake();
        return Struck.over("");
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        if (deployment.cluster() == Deployment.Cluster.CLUSTER_UP) {
            return deployment.lakeRestartRefusal();
        }
        return Optional.of(deployment.searching()
                ? "restart-lake needs cluster up's cluster, and a search runs on an embedded one (its lake is a"
                        + " directory: lake-outage is its lake's fault)"
                : "--faults restart-lake kills the lake's store, which tierproof does only on the cluster"
                        + " ./build.sh cluster up starts: run it with --cluster DIR");
    }
}
