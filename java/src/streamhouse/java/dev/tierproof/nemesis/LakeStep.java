package dev.tierproof.nemesis;

import dev.tierproof.run.RunError;

/**
 * A step of the lake table's life while tiering commits to it, as users maintain a lake table: not
 * a fault, it must change nothing a read returns. Reaching the lake table is tierproof's own doing,
 * so its failure is an error of the run, never a finding.
 */
abstract class LakeStep implements SparesServers {
    private final String kind;

    LakeStep(String kind) {
        this.kind = kind;
    }

    /** Does the step; what it did, in words. */
    abstract String maintain(Target target);

    @Override
    public final Struck strike(Target target) {
        try {
            return Struck.over(maintain(target));
        } catch (RuntimeException e) {
            throw new RunError(kind + " could not reach the lake table: " + e.getMessage(), e);
        }
    }
}
