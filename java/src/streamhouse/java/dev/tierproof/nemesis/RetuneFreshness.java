package dev.tierproof.nemesis;

import dev.tierproof.run.RunError;

/**
 * The table's {@code table.datalake.freshness} changed while it tiers ({@code ALTER TABLE … SET},
 * an option Fluss 0.9.1 lets users alter and applies to a running tiering service): from 2 s to
 * 1 s, else to 2 s. A step of the table's life, not a fault: it may change the lake's lag, never what
 * a read returns once tiering has caught up.
 */
final class RetuneFreshness implements SparesServers {
    static final String KEY = "table.datalake.freshness";

    @Override
    public Struck strike(Target target) {
        String now;
        String next;
        try {
            now = target.options().get(KEY);
            next = "2s".equals(now) ? "1s" : "2s";
            target.options().set(KEY, next);
        } catch (RuntimeException e) {
            // Asking the coordinator is tierproof's own step: a refusal is no finding of the lake.
            throw new RunError("retune-freshness could not alter the table: " + e.getMessage(), e);
        }
        return Struck.over(KEY + " " + (now == null ? "unset" : now) + " -> " + next);
    }
}
