package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeMaintenance;

/** The lake table compacted in full by a writer of its own, as a dedicated compaction job does. */
final class CompactLake extends LakeStep {
    CompactLake() {
        super("compact-lake");
    }

    @Override
    String maintain(Target target) {
        return LakeMaintenance.compact(target.warehouse(), target.database(), target.table());
    }
}
