package dev.tierproof.run;

import dev.tierproof.core.TierproofException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Every step of a run (a statement's planning, submission and job; a read; a wait) runs here, on
 * a worker thread, bounded by its own deadline and by what is left of the run's budget. When
 * either runs out the step's cancel hooks run (cancelling its Flink job), and the step fails with
 * a message that names it ({@code INSERT 3 of 30}) and what it had done. Work that ignores
 * cancellation (a statement still being planned) is abandoned on a daemon thread: the run goes on
 * to clean up rather than wait for it.
 */
public final class Steps {
    /** How long a cancelled step may take to wind down before it is abandoned. */
    static final Duration WIND_DOWN = Duration.ofSeconds(10);

    private final Progress progress;
    private final Duration budget;
    private final long budgetEnd;
    private final Undo undo;

    /**
     * How many parts {@link #together} runs at once. A streamhouse proof's twelve reads are Flink
     * jobs that mostly wait (a bounded read's grace, the servers): on this 2-core machine, 6 at once
     * ended a search trial's reads in 4.6 s against 5.5 s with 4 (8 gained nothing more).
     */
    public static final int LANES = 6;

    private final Worker worker;
    /** The workers of {@link #together}'s lanes, kept for the run: shared by a run's copies. */
    private final Worker[] lanes;
    /** Whether a {@link #together} runs on the lanes now (shared like them). */
    private final java.util.concurrent.atomic.AtomicBoolean lanesBusy;
    /** The step running now: shared by a run's quiet copies. */
    private final AtomicReference<String> current;

    private Steps(Progress progress, Duration budget, long budgetEnd, Undo undo, AtomicReference<String> current,
            Worker worker, Worker[] lanes, java.util.concurrent.atomic.AtomicBoolean lanesBusy) {
        this.progress = progress;
        this.budget = budget;
        this.budgetEnd = budgetEnd;
        this.undo = undo;
        this.current = current;
        this.worker = worker;
        this.lanes = lanes;
        this.lanesBusy = lanesBusy;
    }

    private Steps(Progress progress, Duration budget) {
        this(progress, budget, budget == null ? Long.MAX_VALUE : System.nanoTime() + budget.toNanos(), new Undo(),
                new AtomicReference<>("starting"), new Worker(), lanes(),
                new java.util.concurrent.atomic.AtomicBoolean());
    }

    private static Worker[] lanes() {
        Worker[] lanes = new Worker[LANES];
        for (int i = 0; i < LANES; i++) {
            lanes[i] = new Worker();
        }
        return lanes;
    }

    /** The same run (budget, undo ledger, current step, workers) with progress that prints nothing. */
    public Steps quiet() {
        return new Steps(Progress.silent(), budget, budgetEnd, undo, current, worker, lanes, lanesBusy);
    }

    /** The same run with its steps on lane {@code i}'s worker. */
    private Steps lane(int i) {
        return new Steps(progress, budget, budgetEnd, undo, current, lanes[i], lanes, lanesBusy);
    }

    /**
     * Runs independent parts side by side, at most {@link #LANES} at a time, in the order given:
     * each part's steps run on a worker of its own lane, each bounded by its own deadline and by
     * the run's budget, exactly as if the part ran alone. Returns once every part has ended. A
     * part that throws does not stop the others; the first exception is thrown once all have
     * ended. An interruption stops every part (their steps cancel) and ends the run.
     */
    public void together(List<Consumer<Steps>> parts) {
        if (parts.size() <= 1) {
            parts.forEach(p -> p.accept(this));
            return;
        }
        // The lanes are the run's: two sets of parts side by side would share a lane's one thread.
        if (!lanesBusy.compareAndSet(false, true)) {
            throw new IllegalStateException("parts that run side by side cannot run more side by side");
        }
        try {
            runTogether(parts);
        } finally {
            lanesBusy.set(false);
        }
    }

    private void runTogether(List<Consumer<Steps>> parts) {
        LinkedBlockingQueue<Integer> free = new LinkedBlockingQueue<>();
        for (int i = 0; i < LANES; i++) {
            free.add(i);
        }
        ExecutorService drivers = Executors.newFixedThreadPool(Math.min(LANES, parts.size()), r -> {
            Thread t = new Thread(r, "tierproof-lane");
            t.setDaemon(true);
            return t;
        });
        List<Future<?>> running = new ArrayList<>();
        try {
            for (Consumer<Steps> part : parts) {
                running.add(drivers.submit(() -> {
                    int lane = free.take();
                    try {
                        part.accept(lane(lane));
                    } finally {
                        free.add(lane);
                    }
                    return null;
                }));
            }
            RuntimeException first = null;
            for (Future<?> f : running) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    Throwable cause = e.getCause();
                    if (cause instanceof Error err) {
                        throw err;
                    }
                    RuntimeException r = cause instanceof RuntimeException re ? re
                            : new TierproofException(rootMessage(cause), cause);
                    first = first == null ? r : first;
                }
            }
            if (first != null) {
                throw first;
            }
        } catch (InterruptedException e) {
            drivers.shutdownNow(); // each part's waiting step is interrupted: it cancels its work
            try {
                drivers.awaitTermination(WIND_DOWN.toMillis() + 1000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException again) {
                // interrupted twice: stop waiting for the parts to wind down
            }
            Thread.currentThread().interrupt();
            throw new RunInterrupted("interrupted during " + current());
        } finally {
            drivers.shutdownNow();
        }
    }

    /**
     * The thread steps run on: one at a time, the same thread from step to step (an engine may keep
     * per-thread state, as Flink's planner does), replaced only when a step that would not stop
     * is abandoned. It ends after a minute idle.
     */
    private static final class Worker {
        private ThreadPoolExecutor executor;

        synchronized ThreadPoolExecutor get() {
            if (executor == null) {
                executor = new ThreadPoolExecutor(0, 1, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "tierproof-step");
                    t.setDaemon(true);
                    return t;
                });
            }
            return executor;
        }

        synchronized void abandon() {
            if (executor != null) {
                executor.shutdownNow();
                executor = null;
            }
        }
    }

    /** Steps bounded by their own deadlines only. */
    public static Steps unbounded(Progress progress) {
        return new Steps(progress, null);
    }

    /** Steps bounded by their deadlines and, all together, by {@code budget} ({@code --timeout-s}). */
    public static Steps within(Duration budget, Progress progress) {
        return new Steps(progress, budget);
    }

    /** Silent and unbounded by a budget (tests). */
    public static Steps silent() {
        return unbounded(Progress.silent());
    }

    public Progress progress() {
        return progress;
    }

    /** What this run created in places it does not own, to remove if it fails. */
    public Undo undo() {
        return undo;
    }

    /** The step running now (or last run), for messages about an interruption. */
    public String current() {
        return current.get();
    }

    /** What a step does; it may register cancel hooks and a detail for messages on its control. */
    public interface Work<T> {
        T call(Control control) throws Exception;
    }

    /** A step's hooks: how to cancel it, and what it has done so far. */
    public static final class Control {
        private final List<Runnable> onCancel = new CopyOnWriteArrayList<>();
        private volatile Supplier<String> detail = () -> "";
        private volatile boolean cancelled;

        public void onCancel(Runnable hook) {
            onCancel.add(hook);
            if (cancelled) {
                hook.run();
            }
        }

        /** Added to a timeout message, e.g. {@code it had read 13 changes}. */
        public void detail(Supplier<String> detail) {
            this.detail = detail;
        }

        /** True once the step's time is up: the work should stop and its result is discarded. */
        public boolean cancelled() {
            return cancelled;
        }

        void cancel() {
            cancelled = true;
            for (Runnable hook : onCancel) {
                try {
                    hook.run();
                } catch (RuntimeException ignored) {
                    // cancelling is best effort; the step fails either way
                }
            }
        }
    }

    /** Whether the run's budget is spent, or the run was interrupted: nothing more may start. */
    public boolean stopped() {
        return System.nanoTime() >= budgetEnd || Thread.currentThread().isInterrupted();
    }

    /**
     * Whether {@code e} ends the whole run (the budget spent, a signal) rather than the one step
     * that threw it: a read or a trial that fails on its own is a finding; these are not.
     */
    public boolean endsTheRun(TierproofException e) {
        return stopped() || e instanceof RunInterrupted;
    }

    /** The run was interrupted (a signal) while a step ran. */
    static final class RunInterrupted extends DeadlineExceeded {
        RunInterrupted(String message) {
            super(message);
        }
    }

    /** Runs {@code work} as the step {@code name}, within {@code deadline} and the run's budget. */
    public <T> T run(String name, Duration deadline, Work<T> work) {
        current.set(name);
        long now = System.nanoTime();
        long left = budgetEnd - now;
        if (left <= 0) {
            throw new DeadlineExceeded(budgetMessage(name));
        }
        boolean budgetBinds = left < deadline.toNanos();
        long limit = Math.min(left, deadline.toNanos());
        Control control = new Control();
        if (Thread.currentThread().getName().equals("tierproof-step")) {
            return inline(name, work, control); // a step within a step: bounded by the outer one
        }
        CountDownLatch ended = new CountDownLatch(1);
        Future<T> task = worker.get().submit(() -> {
            try {
                return work.call(control);
            } finally {
                ended.countDown();
            }
        });
        try {
            return task.get(limit, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            stop(control, task, ended);
            String detail = control.detail.get();
            String message = budgetBinds ? budgetMessage(name)
                    : name + " did not end within its deadline of " + deadline.toSeconds() + " s and was cancelled";
            throw new DeadlineExceeded(message + (detail.isEmpty() ? "" : "; " + detail));
        } catch (InterruptedException e) {
            stop(control, task, ended);
            Thread.currentThread().interrupt();
            throw new RunInterrupted("interrupted during " + name);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new TierproofException(name + " failed: " + rootMessage(cause), cause);
        }
    }

    /** A step without a result. */
    public void execute(String name, Duration deadline, VoidWork work) {
        run(name, deadline, control -> {
            work.call(control);
            return null;
        });
    }

    public interface VoidWork {
        void call(Control control) throws Exception;
    }

    private String budgetMessage(String name) {
        return "the run's time budget of " + budget.toSeconds() + " s (--timeout-s) ran out during " + name;
    }

    private static <T> T inline(String name, Work<T> work, Control control) {
        try {
            return work.call(control);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException(name + " failed: " + rootMessage(e), e);
        }
    }

    /** Cancels a step and gives it a moment to stop; one that will not is abandoned with its thread. */
    private void stop(Control control, Future<?> task, CountDownLatch ended) {
        control.cancel();
        task.cancel(true);
        try {
            if (!ended.await(WIND_DOWN.toMillis(), TimeUnit.MILLISECONDS)) {
                worker.abandon();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            worker.abandon();
        }
    }

    /** The message of an exception and of its root cause. */
    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (cause: " + t + ")";
    }
}
