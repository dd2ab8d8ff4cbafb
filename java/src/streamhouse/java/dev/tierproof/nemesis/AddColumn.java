package dev.tierproof.nemesis;

import dev.tierproof.run.RunError;

/**
 * The workload's last column added while the table is written and tiered ({@code ALTER TABLE …
 * ADD}, nullable, last: Fluss 0.9.1's one schema change). A step of the table's life, not a fault:
 * rows written before it read NULL there, rows written after it their value, in Fluss and, once
 * tiered, in the lake.
 */
final class AddColumn implements SparesServers {
    @Override
    public Struck strike(Target target) {
        try {
            return Struck.over(target.schema().addColumn());
        } catch (RuntimeException e) {
            // Altering the table is tierproof's own step: a refusal is no finding of the lake.
            throw new RunError("add-column could not alter the table: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean changesSchema() {
        return true;
    }
}
