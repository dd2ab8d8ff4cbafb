package dev.tierproof.run;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The reads of one proof: planned in the order the verdict judges them (the first is every
 * other's reference), then run side by side ({@link Steps#together}), each timed and bounded as
 * if alone. A read that errors or never ends is a finding, not a crash of the proof: it is left
 * out of the verdict's reads and its failure goes into the verdict's failures. What each read
 * was bounded by, and what it took, go into the proof's maps in the planned order.
 */
public final class Reading {
    /** How a read is bounded: in words, and by a count of the source's own (-1: it ends by itself). */
    public record Bound(String text, long count) {
        public static Bound endsByItself(String text) {
            return new Bound(text, -1);
        }
    }

    /** How a read reads: its steps run on {@code lane}, its changes go to {@code sink}. */
    public interface Reader {
        void read(Steps lane, Workload.ReadBuffer sink);
    }

    /** A read planned to run; {@link #ok} after it ran. */
    public static final class Planned {
        private final Workload.ReadBuffer buffer;
        private final Supplier<Bound> bound;
        private final Reader reader;
        private volatile boolean ok;

        private Planned(Workload.ReadBuffer buffer, Supplier<Bound> bound, Reader reader) {
            this.buffer = buffer;
            this.bound = bound;
            this.reader = reader;
        }

        public String name() {
            return buffer.name();
        }

        /** Its changes (what arrived so far). */
        public Workload.ReadBuffer buffer() {
            return buffer;
        }

        /** Whether it ran and ended; false before it ran and when it failed. */
        public boolean ok() {
            return ok;
        }
    }

    /**
     * A read that needs another to have ended first (its bound is that one's count, or it would
     * wait as that one did): it starts once {@code after} has ended, and is left out, saying
     * {@code otherwise}, when {@code after} did not end well.
     */
    public record Follower(Planned read, Planned after, String otherwise) {}

    /** What one read came to: its time, its bound, and its failure if it failed. */
    private record Outcome(long millis, Bound bound, TierproofException failure) {}

    /** How long a read bounded by a count keeps draining past it (see {@code BoundedRead.GRACE}). */
    private final Duration grace;
    private final Steps steps;
    private final Workload.Reads reads;
    private final Map<String, Long> timings;
    private final Map<String, String> bounds;
    private final List<String> failures;
    private final List<String> failedReads;
    private final List<TierproofException> errors = new ArrayList<>();

    public Reading(Steps steps, Workload.Reads reads, Duration grace, Map<String, Long> timings,
            Map<String, String> bounds, List<String> failures, List<String> failedReads) {
        this.steps = steps;
        this.reads = reads;
        this.grace = grace;
        this.timings = timings;
        this.bounds = bounds;
        this.failures = failures;
        this.failedReads = failedReads;
    }

    /** Reads that keep their times, bounds and failures to themselves (a checkpoint's). */
    public Reading(Steps steps, Workload.Reads reads, Duration grace, List<String> failures) {
        this(steps, reads, grace, new java.util.LinkedHashMap<>(), new java.util.LinkedHashMap<>(),
                new ArrayList<>(failures), new ArrayList<>());
    }

    /** Opens a read now, in judging order; its bound is asked for when it starts. */
    public Planned plan(String name, Workload.Source source, Supplier<Bound> bound, Reader reader) {
        return new Planned(reads.open(name, source), bound, reader);
    }

    /** A view read ({@code Workload.viewQueries}'s {@code index}th): a batch query that ends by itself. */
    public Planned planView(int index, String name, String sql, Reader reader) {
        return new Planned(reads.openView(index, name), () -> Bound.endsByItself(sql + " (ends by itself)"), reader);
    }

    /**
     * Leaves a read that ran out of the verdict, its failure too, saying why: what it read is not
     * what the verdict is about (the table was written meanwhile).
     */
    public void forget(Planned p, String why) {
        failures.removeIf(f -> f.startsWith(p.name() + ": "));
        failedReads.remove(p.name());
        notRun(p, why);
    }

    /** Leaves a planned read out of the verdict, saying why it did not run. */
    public void notRun(Planned p, String why) {
        reads.drop(p.buffer);
        bounds.put(p.name(), why);
    }

    /** Runs the planned reads side by side and records each, in the order given. */
    public void together(List<Planned> planned) {
        together(planned, List.of());
    }

    /**
     * As {@link #together(List)}, each follower starting as soon as the read it follows has ended,
     * while the rest still run (no read waits for all of the others). A follower queues behind
     * every planned read, so the read it waits for has started by then.
     */
    public void together(List<Planned> planned, List<Follower> followers) {
        Map<Planned, java.util.concurrent.CompletableFuture<Boolean>> ended = new java.util.HashMap<>();
        planned.forEach(p -> ended.put(p, new java.util.concurrent.CompletableFuture<>()));
        List<Planned> all = new ArrayList<>(planned);
        followers.forEach(f -> all.add(f.read()));
        Outcome[] outcomes = new Outcome[all.size()];
        List<Consumer<Steps>> parts = new ArrayList<>();
        for (int i = 0; i < planned.size(); i++) {
            Planned p = planned.get(i);
            int at = i;
            parts.add(lane -> {
                try {
                    outcomes[at] = run(lane, p);
                } finally {
                    ended.get(p).complete(p.ok()); // also when the read ended the run: no follower waits on
                }
            });
        }
        for (int i = 0; i < followers.size(); i++) {
            Follower f = followers.get(i);
            int at = planned.size() + i;
            parts.add(lane -> {
                if (ended.get(f.after()).join()) {
                    outcomes[at] = run(lane, f.read());
                }
            });
        }
        try {
            steps.together(parts);
        } finally {
            for (int i = 0; i < all.size(); i++) {
                if (outcomes[i] != null) {
                    record(all.get(i), outcomes[i]);
                }
            }
            followers.stream().filter(f -> !f.after().ok()).forEach(f -> notRun(f.read(), f.otherwise()));
        }
    }

    /** The first read that failed, as it failed (for a proof whose reads may not fail). */
    public java.util.Optional<TierproofException> firstError() {
        return errors.stream().findFirst();
    }

    /** The failures so far (a checkpoint's verdict takes them). */
    public List<String> failures() {
        return failures;
    }

    private Outcome run(Steps lane, Planned p) {
        Bound bound = p.bound.get();
        lane.progress().step("read " + p.name() + (bound.text().isEmpty() ? "" : ": " + bound.text()));
        long t = System.nanoTime();
        try {
            p.reader.read(lane, p.buffer);
        } catch (TierproofException e) {
            if (lane.endsTheRun(e)) {
                throw e;
            }
            return new Outcome(millisSince(t), bound, e);
        }
        p.ok = true;
        return new Outcome(millisSince(t), bound, null);
    }

    private void record(Planned p, Outcome o) {
        String name = p.name();
        timings.put(name, o.millis());
        Bound b = o.bound();
        if (o.failure() != null) {
            reads.drop(p.buffer);
            errors.add(o.failure());
            failures.add(name + ": " + o.failure().getMessage());
            failedReads.add(name);
            bounds.put(name, b.text() + " — FAILED (below)");
            return;
        }
        long extra = b.count() < 0 ? 0 : p.buffer.size() - b.count();
        bounds.put(name, b.count() < 0 ? b.text() : b.text() + ", then " + grace.toMillis() + " ms more: "
                + (extra == 0 ? "nothing" : extra + " changes past the bound (judged)"));
    }

    private static long millisSince(long t) {
        return (System.nanoTime() - t) / 1_000_000;
    }
}
