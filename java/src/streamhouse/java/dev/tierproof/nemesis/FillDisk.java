package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * The disk of the leader of a bucket the run writes filled to the last byte for the fault's
 * length, then freed: its log appends, its KV snapshots, its high-watermark checkpoints all meet
 * "no space left on device". Only on {@code cluster up --tablet-disk MIB}, whose tablet servers keep
 * their data on a filesystem of the cluster's own: tierproof never fills the machine's disks.
 */
final class FillDisk implements Nemesis {
    @Override
    public Struck strike(Target target) {
        int id = target.roles().leader();
        Runnable free = target.servers().fillDisk(id);
        return new Struck("tablet server " + id + ", the leader of a bucket written, its disk full", free);
    }

    @Override
    public boolean lasts() {
        return true;
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        if (deployment.cluster() != Deployment.Cluster.CLUSTER_UP) {
            return Optional.of((deployment.searching() ? "fill-leader-disk fills a server's own disk, and a search"
                    + " runs on an embedded cluster" : "--faults fill-leader-disk fills a server's own disk, which"
                    + " tierproof does only on the cluster ./build.sh cluster up --tablet-disk MIB starts: run it"
                    + " with --cluster DIR"));
        }
        return deployment.diskRefusal().map(r -> "--faults fill-leader-disk: " + r);
    }
}
