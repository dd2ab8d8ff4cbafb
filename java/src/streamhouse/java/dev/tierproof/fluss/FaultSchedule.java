package dev.tierproof.fluss;

import dev.tierproof.flink.Statements;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.nemesis.Target;
import dev.tierproof.run.Steps;
import java.util.ArrayList;
import java.util.List;

/**
 * A run's faults as the client writer meets them: each strikes just before the operation it
 * names, once every write before it is answered (unless it strikes in flight). What struck, and
 * how long it took, is kept for the report.
 */
final class FaultSchedule implements ClientWriter.Interruptions {
    private final List<Fault> faults;
    private final Target target;
    private final Steps steps;
    private final List<String> injected = new ArrayList<>();

    FaultSchedule(List<Fault> faults, Target target, Steps steps) {
        this.faults = faults;
        this.target = target;
        this.steps = steps;
    }

    @Override
    public boolean acknowledgedBefore(int position) {
        return faults.stream().anyMatch(f -> f.at() == position + 1 && !f.inFlight());
    }

    @Override
    public void inject(int position) {
        faults.stream().filter(f -> f.at() == position + 1).forEach(f -> {
            steps.progress().step("fault: " + f + (f.inFlight() || position == 0 ? ""
                    : " (operations 1 to " + position + " answered)"));
            long ft = System.nanoTime();
            f.kind().nemesis().strike(target);
            injected.add(f + " (" + Statements.millisSince(ft) + " ms)");
        });
    }

    /** The faults that struck, each with how long it took: {@code restart-tablet@30 (5120 ms)}. */
    List<String> injected() {
        return List.copyOf(injected);
    }
}
