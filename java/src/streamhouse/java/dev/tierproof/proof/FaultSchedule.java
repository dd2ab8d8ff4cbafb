package dev.tierproof.proof;

import dev.tierproof.flink.Statements;
import dev.tierproof.fluss.ClientWriter;
import dev.tierproof.nemesis.Fault;
import dev.tierproof.nemesis.Struck;
import dev.tierproof.nemesis.Target;
import dev.tierproof.run.Steps;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A run's faults as the client writer meets them: each strikes just before the operation it
 * names, once every write before it is answered (unless it strikes in flight). A fault that lasts
 * holds while the writes go on and heals after its length, on a thread of its own; whatever still
 * holds when the writing ends (or fails) is healed then, by {@link #close}. What struck, whom and
 * how long it took, is kept for the report.
 */
final class FaultSchedule implements ClientWriter.Interruptions, AutoCloseable {
    private final List<Fault> faults;
    private final Target target;
    private final Steps steps;
    private final List<String> injected = new ArrayList<>();
    /** The heals of faults that still hold, each once. */
    private final List<ScheduledFuture<?>> holding = new ArrayList<>();
    private final List<Runnable> heals = new ArrayList<>();
    /** When each fault held, on {@link #clock}. */
    private final List<dev.tierproof.report.FaultBand> bands = new ArrayList<>();
    private final java.util.function.LongSupplier clock;
    private ScheduledExecutorService healer;

    FaultSchedule(List<Fault> faults, Target target, Steps steps) {
        this(faults, target, steps, System::currentTimeMillis);
    }

    /** With {@code clock} (milliseconds) timing when each fault held, as the run's plots are timed. */
    FaultSchedule(List<Fault> faults, Target target, Steps steps, java.util.function.LongSupplier clock) {
        this.faults = faults;
        this.target = target;
        this.steps = steps;
        this.clock = clock;
    }

    @Override
    public boolean acknowledgedBefore(int position) {
        return faults.stream().anyMatch(f -> f.at() == position + 1 && !f.inFlight());
    }

    @Override
    public boolean reopensWritersBefore(int position) {
        return faults.stream().anyMatch(f -> f.at() == position + 1 && f.kind().nemesis().changesSchema());
    }

    @Override
    public void inject(int position) {
        faults.stream().filter(f -> f.at() == position + 1).forEach(f -> {
            steps.progress().step("fault: " + f + (f.inFlight() || position == 0 ? ""
                    : " (operations 1 to " + position + " answered)"));
            long ft = System.nanoTime();
            long from = clock.getAsLong();
            Struck struck = f.kind().nemesis().strike(target);
            String whom = struck.what().isEmpty() ? "" : struck.what() + ", ";
            synchronized (injected) {
                injected.add(f + " (" + whom + Statements.millisSince(ft) + " ms)");
            }
            if (f.length().isZero()) {
                band(f, from);
            } else {
                steps.progress().step("fault: " + f + " holds" + (whom.isEmpty() ? "" : " (" + struck.what() + ")")
                        + "; it heals in " + f.length().toMillis() + " ms, and the writes go on meanwhile");
                holdFor(f, once(f, struck.heal(), from));
            }
        });
    }

    private synchronized void holdFor(Fault f, Runnable heal) {
        if (healer == null) {
            healer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tierproof-fault-healer");
                t.setDaemon(true);
                return t;
            });
        }
        heals.add(heal);
        holding.add(healer.schedule(heal, f.length().toMillis(), TimeUnit.MILLISECONDS));
    }

    /**
     * Runs {@code heal} the first time only, by its timer or by {@link #close}, whichever comes
     * first, and says so; a second caller waits until the first has healed it (the writing's end
     * must not race a heal still under way).
     */
    private Runnable once(Fault f, Runnable heal, long from) {
        boolean[] done = {false};
        return () -> {
            synchronized (done) {
                if (!done[0]) {
                    done[0] = true;
                    try {
                        heal.run();
                    } catch (RuntimeException e) {
                        healFailed(f, e);
                    }
                    band(f, from);
                    List<String> notes = target.servers().takeNotes();
                    String said = notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
                    steps.progress().step("fault: " + f + " healed" + said);
                    if (!said.isEmpty()) {
                        synchronized (injected) {
                            injected.add(f + " healed" + said);
                        }
                    }
                }
            }
        };
    }

    /**
     * Heals every fault that still holds, at once: the writing is over (or failed). A heal under
     * way on its timer is waited for, never interrupted (a SIGCONT cut off would leave the server
     * stopped).
     */
    @Override
    public void close() {
        List<Runnable> all;
        ScheduledExecutorService timers;
        synchronized (this) {
            holding.forEach(h -> h.cancel(false));
            all = List.copyOf(heals);
            timers = healer;
        }
        all.forEach(Runnable::run);
        if (timers != null) {
            timers.shutdown();
            try {
                if (!timers.awaitTermination(30, TimeUnit.SECONDS)) {
                    timers.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (healFailures) {
            if (!healFailures.isEmpty()) {
                // The cluster may still hold the fault: what follows would blame the servers for it.
                throw healFailures.get(0);
            }
        }
    }

    /** A heal that failed (on its timer thread, where no one would see it): kept, and thrown by {@link #close}. */
    private final List<RuntimeException> healFailures = new ArrayList<>();

    private void healFailed(Fault f, RuntimeException e) {
        synchronized (healFailures) {
            healFailures.add(new dev.tierproof.run.RunError("healing " + f + " failed: " + e.getMessage(), e));
        }
    }

    private void band(Fault f, long from) {
        synchronized (bands) {
            bands.add(new dev.tierproof.report.FaultBand(f.toString(), from, clock.getAsLong()));
        }
    }

    /** When each fault held, on the schedule's clock. */
    List<dev.tierproof.report.FaultBand> bands() {
        synchronized (bands) {
            return List.copyOf(bands);
        }
    }

    /** The faults that struck, each with whom and how long striking took: {@code restart-tablet@30 (5120 ms)}. */
    List<String> injected() {
        synchronized (injected) {
            return List.copyOf(injected);
        }
    }
}
