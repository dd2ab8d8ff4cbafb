package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * One kind of fault: how it strikes a running proof, and where it cannot. Each kind of
 * {@link Fault.Kind} names its nemesis, so a kind without one does not compile.
 */
public interface Nemesis {
    /**
     * Strikes. A fault that does not last ({@link #lasts()} false: a restart) returns once it is
     * over; one that lasts (a pause) returns once it holds, and heals through what it returns.
     */
    Struck strike(Target target);

    /** Whether the fault holds until healed, for a length the schedule gives ({@code pause-leader@30+8s}). */
    default boolean lasts() {
        return false;
    }

    /**
     * Whether it strikes the cluster's servers or its lake's store (a restart, a pause, a cut):
     * what follows it may still feel it, so nothing after it shares what it ran on. A step of the
     * table's life (a compaction, an ALTER) or a restart of the tiering job does not.
     */
    default boolean touchesServers() {
        return true;
    }

    /**
     * Whether the run is as it was after it, for what comes next to share: no server or store
     * struck, and the tiering job with the settings it had.
     */
    default boolean leavesRunAsItWas() {
        return !touchesServers();
    }

    /**
     * Whether it changes the table's schema ({@code ALTER TABLE … ADD}): the writers are made
     * again after it, as an application takes a new schema.
     */
    default boolean changesSchema() {
        return false;
    }

    /** Why this fault cannot strike a cluster deployed so, before anything starts; empty when it can. */
    default Optional<String> refusal(Deployment deployment) {
        return Optional.empty();
    }

    /** Why this fault cannot strike a run set up so (its tiering, its lake); empty when it can. */
    default Optional<String> refusal(RunSetup run) {
        return Optional.empty();
    }
}
