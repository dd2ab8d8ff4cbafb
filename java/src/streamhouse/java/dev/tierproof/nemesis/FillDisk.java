package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * The disk of the leader of a bucket the run writes (or of an in-sync follower) filled to the last
 * byte for the fault's length, then freed: its log appends, its KV snapshots, its high-watermark checkpoints all meet
 * "no space left on device". Only on {@code cluster up --tablet-disk MIB}, whose tablet servers keep
 * their data on a filesystem of the cluster's own: tierproof never fills the machine's disks.
 */
final class FillDisk implements Nemesis {
    private final String kind;
    private final String role;
    private final java.util.function.ToIntFunction<Roles> server;

    private FillDisk(String kind, String role, java.util.function.ToIntFunction<Roles> server) {
        this.kind = kind;
        this.role = role;
        this.server = server;
    }

    static FillDisk leader() {
        return new FillDisk("fill-leader-disk", "the leader of a bucket written", Roles::leader);
    }

    static FillDisk follower() {
        return new FillDisk("fill-follower-disk", "an in-sync follower of a bucket written", Roles::follower);
    }

    @Override
    public Struck strike(Target target) {
        int id = server.applyAsInt(target.roles());
        Runnable free = target.servers().fillDisk(id);
        return new Struck("tablet server " + id + ", " + role + ", its disk full", free);
    }

    @Override
    public boolean lasts() {
        return true;
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        return deployment.onlyOnClusterUp(kind, "fills a server's own disk", "--tablet-disk MIB",
                deployment.diskRefusal());
    }
}
