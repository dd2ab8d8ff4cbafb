package dev.tierproof.nemesis;

import dev.tierproof.paimon.LakeOutage;
import dev.tierproof.run.RunError;
import java.time.Duration;
import java.util.Optional;

/**
 * For 10 s the lake table's manifest directory is not there (before its first commit: cannot be
 * made): every commit to the lake fails, wherever the schedule puts the fault. Long enough for a
 * tiering round on a loaded machine to try one (3 s was not, once, on a loaded CI run).
 */
final class LakeOutageNemesis implements Nemesis {
    private static final Duration LENGTH = Duration.ofSeconds(10);

    @Override
    public Struck strike(Target target) {
        try {
            LakeOutage.run(target.warehouse(), target.database(), target.table(), LENGTH);
        } catch (RuntimeException e) {
            // Moving a directory of the warehouse aside is tierproof's own doing: its failure is no finding.
            throw new RunError("lake-outage could not be made: " + e.getMessage(), e);
        }
        return Struck.over("");
    }

    @Override
    public Optional<String> refusal(RunSetup run) {
        if (run.warehouse() != null && !run.warehouse().isLocal()) {
            return Optional.of("--faults lake-outage moves the lake table's manifest directory aside, which tierproof"
                    + " does only in a local warehouse, not in " + run.warehouse());
        }
        return Optional.empty();
    }
}
