package dev.tierproof.cli;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Versions;
import dev.tierproof.run.RunDirectory;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code tierproof [prove|streamhouse|matrix|search|ddl|help] [options]}. Exit status: 0
 * consistent, 1 inconsistent, 2 bad input or a failure to run; 130/143 when stopped by
 * SIGINT/SIGTERM (after cleaning up).
 */
@Command(name = "tierproof", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Proves that batch and streaming reads of a tiered Fluss/Paimon table return the same rows.",
        footer = {"", "Without a command, runs prove. Exit status: 0 consistent, 1 inconsistent, 2 bad input or a"
            + " failure to run, 130/143 stopped by SIGINT/SIGTERM."})
public final class Main {
    static final int CONSISTENT = 0;
    static final int INCONSISTENT = 1;
    static final int FAILED = 2;

    final PrintStream out;
    final PrintStream err;
    /** The command line's run directory (it also holds the JVM's temporary files); null in-process. */
    final RunDirectory runDirectory;
    private volatile RunSession session;

    private Main(PrintStream out, PrintStream err, RunDirectory runDirectory) {
        this.out = out;
        this.err = err;
        this.runDirectory = runDirectory;
    }

    /**
     * The system's temporary directory, as the JVM started with it: {@link #main} points
     * {@code java.io.tmpdir} into the run's own directory, which is removed when the run ends.
     */
    static final Path SYSTEM_TMP = Path.of(System.getProperty("java.io.tmpdir"));

    /**
     * Google's GCS connector logs through java.util.logging, at INFO, on every call (its metrics,
     * its bucket checks): warnings only, as log4j's configuration has everything else. Held here:
     * java.util.logging keeps a logger's level only while the logger is referenced.
     */
    private static final java.util.logging.Logger GCS_CONNECTOR = quiet("com.google.cloud.hadoop");

    private static java.util.logging.Logger quiet(String name) {
        java.util.logging.Logger logger = java.util.logging.Logger.getLogger(name);
        logger.setLevel(java.util.logging.Level.WARNING);
        return logger;
    }

    public static void main(String[] argv) {
        boolean verbose = Arrays.asList(argv).contains("--verbose");
        // Before anything logs: engine stack traces only with --verbose.
        System.setProperty("tierproof.log.exceptions", verbose ? "full" : "none");
        int status;
        RunDirectory dir = null;
        try {
            // Every temporary file of this process (Flink's planner jar, native libraries, RocksDB)
            // goes to the run directory, removed at the end or by the next run after a kill -9.
            dir = RunDirectory.create(Path.of(System.getProperty("java.io.tmpdir")));
            System.setProperty("java.io.tmpdir", dir.directory("tmp").toString());
            // A signal before a command's run has started (or after it ended) still removes the
            // directory; during a run, the run's own handler cleans up first.
            RunDirectory made = dir;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                RunSession s = current;
                if (s != null) {
                    s.awaitClosed(); // its own handler reports the interruption and cleans up
                }
                made.close();
            }, "tierproof-run-directory"));
            status = run(Arrays.asList(argv), System.out, System.err, dir);
        } catch (Throwable t) {
            // An Error (a missing class, no memory) must still end the JVM with status 2: Flink's
            // non-daemon threads would otherwise keep it alive.
            System.err.println("tierproof: failed: " + t);
            if (verbose) {
                t.printStackTrace();
            } else {
                causes(t).forEach(c -> System.err.println("  caused by: " + c));
            }
            status = FAILED;
        } finally {
            if (dir != null) {
                try {
                    dir.close();
                } catch (RuntimeException e) {
                    System.err.println("tierproof: " + e.getMessage());
                }
            }
        }
        RunSession s = current;
        if (s != null && s.interrupted()) {
            // A signal is shutting the JVM down with its own status (130/143) once the cleanup is
            // done: exiting here with ours would race it.
            awaitHalt();
        }
        System.exit(status);
    }

    private static void awaitHalt() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException ignored) {
                // the shutdown ends this thread with the JVM
            }
        }
    }

    /** Runs a command in this JVM (tests), in a run directory of its own. */
    static int run(List<String> argv, PrintStream out, PrintStream err) {
        return run(argv, out, err, null);
    }

    static int run(List<String> argv, PrintStream out, PrintStream err, RunDirectory runDirectory) {
        List<String> args = new ArrayList<>(argv);
        if (args.isEmpty() || (args.get(0).startsWith("--") && !isTopLevelFlag(args.get(0)))) {
            args.add(0, "prove");
        }
        Main main = new Main(out, err, runDirectory);
        boolean verbose = args.contains("--verbose");
        CommandLine cli = commandLine(main);
        cli.setParameterExceptionHandler((e, ignored) -> {
            err.println("tierproof: bad input: " + e.getMessage());
            err.println("see: tierproof help " + e.getCommandLine().getCommandName());
            return FAILED;
        });
        cli.setExecutionExceptionHandler((e, command, parsed) -> main.failed(e, verbose));
        return cli.execute(args.toArray(String[]::new));
    }

    /**
     * The parser, writing to {@code main}'s streams: prove, the commands of the parts this build
     * has (or, for a part it lacks, a command that says how to get it), ddl, reference and help.
     */
    static CommandLine commandLine(Main main) {
        Factory factory = new Factory(main);
        CommandLine cli = new CommandLine(main, factory);
        cli.addSubcommand(new CommandLine(ProveCommand.class, factory));
        Map<String, Class<?>> loaded = Parts.loaded();
        Parts.declared().forEach((part, commands) -> commands.forEach(name -> {
            Class<?> command = loaded.get(name);
            if (command != null) {
                cli.addSubcommand(new CommandLine(command, factory));
            } else {
                cli.addSubcommand(name, new CommandLine(new MissingPart(name, part), factory));
            }
        }));
        for (Class<?> c : List.of(DdlCommand.class, CheckCommand.class, ReferenceCommand.class,
                CommandLine.HelpCommand.class)) {
            cli.addSubcommand(new CommandLine(c, factory));
        }
        cli.setOut(new PrintWriter(main.out, true, StandardCharsets.UTF_8));
        cli.setErr(new PrintWriter(main.err, true, StandardCharsets.UTF_8));
        return cli;
    }

    /** A parser that runs nothing (the generated reference reads its usage messages). */
    static CommandLine parserOnly() {
        return commandLine(new Main(System.out, System.err, null));
    }

    private static boolean isTopLevelFlag(String arg) {
        return arg.equals("--help") || arg.equals("--version");
    }

    /** The command line's run, for its process-wide shutdown hook. */
    private static volatile RunSession current;

    /** Called by a command once its run exists, so a failure can be reported against it. */
    void running(RunSession s) {
        session = s;
        if (runDirectory != null) {
            current = s;
        }
    }

    /**
     * What lies under a failure an engine wrapped ("Unable to create catalog" says nothing of the
     * name node it could not reach): each cause whose message the lines before do not already
     * hold, at most five, without the stack ({@code --verbose} prints that).
     */
    static List<String> causes(Throwable failure) {
        List<String> out = new ArrayList<>();
        StringBuilder said = new StringBuilder(String.valueOf(failure.getMessage()));
        Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        seen.add(failure);
        for (Throwable c = failure.getCause(); c != null && seen.add(c) && out.size() < 5; c = c.getCause()) {
            String message = c.getMessage();
            if (message != null && !message.isBlank() && said.indexOf(message.strip()) >= 0) {
                continue;
            }
            String line = String.valueOf(c).replaceAll("\\s*\\R\\s*", " ");
            out.add(line.length() > 400 ? line.substring(0, 400) + " ..." : line);
            said.append(' ').append(message);
        }
        return out;
    }

    private int failed(Exception e, boolean verbose) {
        RunSession s = session;
        if (s != null && s.interrupted()) {
            return FAILED; // the signal handler has said what happened; the JVM exits 130/143
        }
        if (e instanceof IllegalArgumentException) {
            err.println("tierproof: bad input: " + e.getMessage());
        } else if (e instanceof TierproofException) {
            err.println("tierproof: failed: " + e.getMessage());
        } else {
            err.println("tierproof: failed: " + e);
        }
        if (verbose) {
            e.printStackTrace(err);
        } else {
            causes(e).forEach(c -> err.println("  caused by: " + c));
        }
        if (s != null) {
            s.reportFailure(e);
        }
        return FAILED;
    }

    /** Makes the commands, handing each this Main (its streams and run directory). */
    private record Factory(Main main) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            if (cls == Main.class) {
                return cls.cast(main);
            }
            if (TierproofCommand.class.isAssignableFrom(cls)) {
                K command = CommandLine.defaultFactory().create(cls);
                ((TierproofCommand) command).main = main;
                return command;
            }
            return CommandLine.defaultFactory().create(cls);
        }
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"tierproof 0.1.0 " + Versions.all()};
        }
    }
}
