package dev.tierproof.nemesis;

import java.util.Optional;

/**
 * The run's tiering job stopped and started again with other settings, as an operator redeploys
 * the tiering service: Flink checkpoints where it had none (or none where it had them), and
 * another interval between its polls of Fluss for tables to tier.
 */
final class RetuneTiering implements SparesServers {
    @Override
    public Struck strike(Target target) {
        return Struck.over(target.tiering().restartWithOtherSettings().get());
    }

    /** The job runs on with other settings than the run's: nothing after it shares it. */
    @Override
    public boolean leavesRunAsItWas() {
        return false;
    }

    @Override
    public Optional<String> refusal(RunSetup run) {
        return RestartTiering.ownTieringOnly(run, "retune-tiering");
    }
}
