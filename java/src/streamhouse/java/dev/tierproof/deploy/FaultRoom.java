package dev.tierproof.deploy;

import java.nio.file.Path;

/**
 * What {@code cluster up} prepares so that faults can strike its servers, each checked before
 * anything starts.
 *
 * @param isolatedNetwork each Fluss server in a network namespace of its own ({@link Network}), so
 *     that network faults can cut it off (S3 lakes only)
 * @param tabletDiskMiB above 0: each tablet server's data on a tmpfs of that size ({@link Disks}),
 *     so that a disk fault can fill it
 * @param ownClocks each tablet server on a clock of its own ({@link Clocks}), so that a clock fault
 *     can move it
 */
public record FaultRoom(boolean isolatedNetwork, int tabletDiskMiB, boolean ownClocks) {
    /** Nothing prepared: only restarts, kills and pauses can strike. */
    public static final FaultRoom NONE = new FaultRoom(false, 0, false);

    public FaultRoom {
        if (tabletDiskMiB < 0 || tabletDiskMiB > 65_536) {
            throw new IllegalArgumentException("--tablet-disk " + tabletDiskMiB + " must be between 16 and 65536"
                    + " (MiB), or 0 for none");
        }
        if (tabletDiskMiB > 0 && tabletDiskMiB < 16) {
            throw new IllegalArgumentException("--tablet-disk " + tabletDiskMiB + " must be between 16 and 65536"
                    + " (MiB): a tablet server needs room to start");
        }
    }

    /** Refuses what this machine cannot prepare for {@code tablets} servers in {@code dir}, naming what it lacks. */
    void check(Path dir, int tablets, ProcessCluster.Lake lakeStore) {
        if (tabletDiskMiB > 0) {
            Disks.checkMemory(tablets, tabletDiskMiB);
            Disks.checkPrivileges(dir.toAbsolutePath());
        }
        if (isolatedNetwork && lakeStore != ProcessCluster.Lake.S3) {
            throw new IllegalArgumentException("--network isolated runs with the S3 lake (--lake s3) only");
        }
        if (isolatedNetwork) {
            Network.checkPrivileges();
        }
        if (ownClocks) {
            Clocks.checkAvailable();
        }
    }
}
