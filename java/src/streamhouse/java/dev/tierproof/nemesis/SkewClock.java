package dev.tierproof.nemesis;

import java.time.Duration;
import java.util.Optional;

/**
 * The wall clock of the leader of a bucket the run writes moved ahead or behind for the fault's
 * length, then set true again: a server whose NTP stepped it, or that never had it. What Fluss
 * stamps with it (its batches' commit times, its log's retention, the lake's snapshot times) is
 * then out of step with the other servers'. Only on {@code cluster up --clocks}, whose tablet
 * servers run on clocks of their own: tierproof never moves the machine's clock.
 */
final class SkewClock implements Nemesis {
    /** How far a clock fault moves a clock: far past any timeout, well inside a week's retention. */
    static final Duration OFFSET = Duration.ofMinutes(10);

    private final String kind;
    private final Duration offset;

    private SkewClock(String kind, Duration offset) {
        this.kind = kind;
        this.offset = offset;
    }

    static SkewClock ahead() {
        return new SkewClock("clock-ahead-leader", OFFSET);
    }

    static SkewClock behind() {
        return new SkewClock("clock-behind-leader", OFFSET.negated());
    }

    @Override
    public Struck strike(Target target) {
        int id = target.roles().leader();
        Runnable heal = target.servers().skewClock(id, offset);
        return new Struck("tablet server " + id + ", the leader of a bucket written, its clock "
                + offset.abs().toMinutes() + " min " + (offset.isNegative() ? "behind" : "ahead"), heal);
    }

    @Override
    public boolean lasts() {
        return true;
    }

    @Override
    public Optional<String> refusal(Deployment deployment) {
        return deployment.onlyOnClusterUp(kind, "moves a server's own clock", "--clocks",
                deployment.clockRefusal());
    }
}
