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
        return run.ownTiering() ? Optional.empty()
                : Optional.of("--faults restart-tiering restarts tierproof's own tiering job: with --tiering cluster"
                        + " there is none to restart");
    }
}
