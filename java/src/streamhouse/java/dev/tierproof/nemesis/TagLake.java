package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeMaintenance;

/** The lake table's latest snapshot tagged, as users keep a snapshot. */
final class TagLake extends LakeStep {
    TagLake() {
        super("tag-lake");
    }

    @Override
    String maintain(Target target) {
        return LakeMaintenance.tag(target.warehouse(), target.database(), target.table());
    }
}
