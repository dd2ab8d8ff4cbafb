package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeMaintenance;
import dev.tierproof.run.RunError;

/**
 * The lake table maintained while tiering commits to it, as users maintain it: compacted in full by
 * a writer of its own, or its latest snapshot tagged. A step of the table's life, not a fault: it
 * must change nothing a read returns.
 */
final class MaintainLake implements Nemesis {
    private final boolean compact;

    private MaintainLake(boolean compact) {
        this.compact = compact;
    }

    static MaintainLake compaction() {
        return new MaintainLake(true);
    }

    static MaintainLake tag() {
        return new MaintainLake(false);
    }

    @Override
    public Struck strike(Target target) {
        try {
            return Struck.over(compact ? LakeMaintenance.compact(target.warehouse(), target.database(), target.table())
                    : LakeMaintenance.tag(target.warehouse(), target.database(), target.table()));
        } catch (RuntimeException e) {
            // Reaching the lake table is tierproof's own doing: its failure is no finding.
            throw new RunError((compact ? "compact-lake" : "tag-lake") + " could not reach the lake table: "
                    + e.getMessage(), e);
        }
    }
}
