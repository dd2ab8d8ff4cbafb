package dev.tierproof.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.Versions;
import dev.tierproof.report.Report;
import dev.tierproof.run.Progress;
import dev.tierproof.run.RunDirectory;
import dev.tierproof.run.Steps;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * One command's run: its directory, its steps (deadlines, budget, undo ledger), what it started
 * (Flink, Fluss: {@code Streamhouse} in the streamhouse part), and what happens when it ends. However it ends — completed, failed, or stopped by
 * SIGINT/SIGTERM — everything it started is stopped, whatever it created in a user's warehouse
 * is removed unless the run completed, its directory is removed, and with {@code --report} a
 * failed or interrupted run still leaves a report that says so and where it was.
 */
final class RunSession implements AutoCloseable {
    private final String command;
    private final RunDirectory directory;
    private final boolean ownsDirectory;
    private final Steps steps;
    private final PrintStream err;
    private final OutputFile report;
    /** How long past --timeout-s a step that ignores cancellation may run before the run is stopped. */
    static final Duration BUDGET_GRACE = Duration.ofSeconds(30);
    private final Deque<AutoCloseable> started = new ArrayDeque<>();
    private final Thread onSignal;
    private volatile boolean interrupted;
    private boolean completed;
    private boolean closed;
    private Thread watchdog;
    private final java.util.concurrent.CountDownLatch closedLatch = new java.util.concurrent.CountDownLatch(1);

    private RunSession(String command, RunDirectory directory, boolean ownsDirectory, Steps steps, PrintStream err,
            OutputFile report) {
        this.command = command;
        this.directory = directory;
        this.ownsDirectory = ownsDirectory;
        this.steps = steps;
        this.err = err;
        this.report = report;
        this.onSignal = new Thread(this::interrupt, "tierproof-shutdown");
    }

    /**
     * Starts a run of {@code command}: in the process's run directory when the command line made
     * one, else in a new one (removed at the end).
     */
    static RunSession start(String command, RunDirectory processDirectory, RunOptions options, OutputFile report,
            PrintStream err) {
        RunDirectory dir = processDirectory != null ? processDirectory
                : RunDirectory.create(Path.of(System.getProperty("java.io.tmpdir")));
        RunSession s = new RunSession(command, dir, processDirectory == null,
                Steps.within(options.timeout(), Progress.to(err)), err, report);
        Runtime.getRuntime().addShutdownHook(s.onSignal);
        s.watchBudget(options.timeout(), processDirectory != null);
        return s;
    }

    /**
     * The backstop of {@code --timeout-s}: steps stop themselves when the budget runs out, but
     * starting or stopping an engine is not a step. Past the budget and a grace period the run is
     * stopped as if interrupted, reported as failed, and (on the command line) the process exits 2.
     */
    private void watchBudget(Duration budget, boolean exitProcess) {
        watchdog = new Thread(() -> {
            try {
                Thread.sleep(budget.plus(BUDGET_GRACE).toMillis());
            } catch (InterruptedException closedInTime) {
                return;
            }
            synchronized (this) {
                if (closed) {
                    return;
                }
            }
            String step = steps.current();
            err.println("tierproof: failed: the run's time budget of " + budget.toSeconds() + " s (--timeout-s) ran"
                    + " out during " + step + ", which did not stop in " + BUDGET_GRACE.toSeconds() + " s more;"
                    + " stopping everything");
            writeStatus("failed", "the run's time budget ran out during " + step);
            try {
                close();
            } finally {
                if (exitProcess) {
                    System.exit(Main.FAILED);
                }
            }
        }, "tierproof-budget");
        watchdog.setDaemon(true);
        watchdog.start();
    }

    RunDirectory directory() {
        return directory;
    }

    Steps steps() {
        return steps;
    }

    boolean interrupted() {
        return interrupted;
    }

    /** Registers something started (an engine, a cluster), to stop in reverse order at the end. */
    <T extends AutoCloseable> T started(T resource) {
        synchronized (started) {
            started.push(resource);
        }
        return resource;
    }

    /** The run completed: what it created in the user's warehouse stays. */
    synchronized void completed() {
        completed = true;
        steps.undo().keep();
    }

    /** A failed run's report, when one was asked for. */
    void reportFailure(Throwable failure) {
        writeStatus("failed", String.valueOf(failure.getMessage()));
    }

    /** SIGINT/SIGTERM: say what was running, leave the report, clean up. The JVM then exits 130/143. */
    private void interrupt() {
        synchronized (this) {
            if (completed || closed) {
                // The run has its verdict (and report): only let the cleanup under way finish.
                close();
                return;
            }
        }
        interrupted = true;
        err.println("tierproof: interrupted during " + steps.current() + "; stopping and removing what this run made");
        // The report first: nothing of the engines' shutdown (the JVM's other hooks run alongside) comes before it.
        writeStatus("interrupted", "stopped by a signal during " + steps.current());
        try {
            // The engines shut down in any order now, and complain that their peers are gone: noise.
            Configurator.setAllLevels(LogManager.getRootLogger().getName(), Level.OFF);
        } catch (RuntimeException loggingGone) {
            // log4j's own shutdown hook may have stopped it already: nothing to quiet
        }
        try {
            close();
        } catch (RuntimeException e) {
            err.println("tierproof: cleaning up after the interruption failed: " + e.getMessage());
        }
    }

    private void writeStatus(String status, String message) {
        if (report == null) {
            return;
        }
        try {
            writeStatusReport(status, message);
        } catch (Throwable t) {
            // Never silent: in a shutdown hook an escaping error would end the hook's thread unseen
            // (a class that can no longer load while the JVM goes down, say).
            err.println("tierproof: the " + status + " run's report could not be written: " + t);
        }
    }

    private void writeStatusReport(String status, String message) {
        ObjectNode r = Report.newObject();
        r.put("command", command);
        r.put("status", status);
        r.put("step", steps.current());
        r.put("message", message);
        ObjectNode v = r.putObject("versions");
        Versions.all().forEach(v::put);
        String json = Report.render(r);
        if (report.write(report.html() ? Report.statusPage(status, json) : json + "\n", err)) {
            err.println("tierproof: report (" + status + "): " + report.path());
        }
    }

    /**
     * Stops what was started, undoes what a run that did not complete created, removes the run
     * directory. Synchronized as a whole: a signal that arrives while the main thread is closing
     * waits for that close to finish instead of letting the JVM halt halfway through an undo.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean undo = !completed;
        if (watchdog != null && Thread.currentThread() != watchdog) {
            watchdog.interrupt();
        }
        RuntimeException first = null;
        while (true) {
            AutoCloseable c;
            synchronized (started) {
                c = started.poll();
            }
            if (c == null) {
                break;
            }
            try {
                c.close();
            } catch (Exception e) {
                first = first == null ? new RuntimeException(e.getMessage(), e) : first;
            }
        }
        if (undo) {
            steps.undo().undoAll().forEach(line -> err.println("tierproof: " + line));
        }
        try {
            if (ownsDirectory || interrupted) {
                directory.close();
            }
        } catch (RuntimeException e) {
            first = first == null ? e : first;
        }
        if (!interrupted) {
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is going down: the hook runs and finds everything closed
            }
        }
        closedLatch.countDown();
        if (first != null) {
            throw first;
        }
    }

    /** Waits (a bounded time) until this run has closed, whoever closes it. */
    void awaitClosed() {
        try {
            closedLatch.await(2, java.util.concurrent.TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
