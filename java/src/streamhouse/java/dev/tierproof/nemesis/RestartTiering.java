package dev.tierproof.nemesis;

import java.util.Optional;

/** The run's tiering job cancelled and a new one started, as an operator would. */
final class RestartTiering implements SparesServers {
    @Override
    public Struck strike(Target target) {
        target.tiering().restart().run();
        return Struck.over("");
    }

    @Override
    public Optional<String> refusal(RunSetup run) {
        return ownTieringOnly(run, "restart-tiering");
    }

    /** A fault of {@code kind} restarts tierproof's own tiering job: refused when the cluster's tiers. */
    static Optional<String> ownTieringOnly(RunSetup run, String kind) {
        return run.ownTiering() ? Optional.empty()
                : Optional.of("--faults " + kind + " restarts tierproof's own tiering job: with --tiering cluster"
                        + " there is none to restart");
    }
}
