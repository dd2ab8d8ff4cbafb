package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeMaintenance;

/**
 * Every lake snapshot but the latest expired, as a user's {@code expire_snapshots} with
 * {@code retain_max => 1} does while tiering commits: a read of the lake's latest state, or one
 * through Fluss's union, must not miss what the expired snapshots held.
 */
final class ExpireLake extends LakeStep {
    ExpireLake() {
        super("expire-lake");
    }

    @Override
    String maintain(Target target) {
        return LakeMaintenance.expire(target.warehouse(), target.database(), target.table());
    }
}
