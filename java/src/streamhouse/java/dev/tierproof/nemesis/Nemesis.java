package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * One kind of fault: how it strikes a running proof, and where it cannot. Each kind of
 * {@link Fault.Kind} names its nemesis, so a kind without one does not compile.
 */
public interface Nemesis {
    /** Strikes; returns once the fault is healed again (a restart is both at once). */
    void strike(Target target);

    /** Why this fault cannot strike a cluster deployed so, before anything starts; empty when it can. */
    default Optional<String> refusal(Deployment deployment) {
        return Optional.empty();
    }

    /** Why this fault cannot strike a run set up so (its tiering, its lake); empty when it can. */
    default Optional<String> refusal(RunSetup run) {
        return Optional.empty();
    }
}
