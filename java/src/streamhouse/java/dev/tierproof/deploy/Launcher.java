package dev.tierproof.deploy;

import dev.tierproof.core.TierproofException;
import dev.tierproof.util.ChildJvm;
import dev.tierproof.util.Processes;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How a cluster's part runs: a process of its own (a server's JVM on its class path, or a program),
 * its output in the cluster's logs, started, awaited on its port, stopped; and a log's tail for a
 * failure's message.
 */
final class Launcher {
    /** The package of Flink's JobManager and TaskManager. */
    private static final String FLINK_SERVERS = "org.apache.flink.runtime.";

    /** The package of Fluss's coordinator and tablet servers. */
    private static final String FLUSS_SERVERS = "org.apache.fluss.server.";

    private Launcher() {}

    static ProcessCluster.State.Part start(Path dir, String name, String mainClass, String endpoint, String... args)
            throws IOException {
        return start(dir, name, null, mainClass, endpoint, args);
    }

    /**
     * Starts a part: {@code program} (null: a JVM running {@code mainClass}, a server's main class,
     * on this JVM's class path) with {@code args}, its output in the cluster's logs.
     */
    static ProcessCluster.State.Part start(Path dir, String name, String program, String mainClass, String endpoint,
            String... args) throws IOException {
        return part(launch(dir, name, name, program, mainClass, args), mainClass, endpoint, args);
    }

    /** A started process as a part: its last argument (its configuration) marks it as ours. */
    static ProcessCluster.State.Part part(Process p, String mainClass, String endpoint, String... args) {
        return new ProcessCluster.State.Part(p.pid(), mainClass, endpoint, args[args.length - 1]);
    }

    /**
     * Starts a process on {@code classPathOf}'s class path (see {@link #command}), its output in
     * the cluster's logs as {@code name}.
     */
    static Process launch(Path dir, String name, String classPathOf, String program, String mainClass,
            String... args) throws IOException {
        Path log = dir.resolve("logs").resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command(dir, classPathOf, program, mainClass, args))
                .directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(nullFile()));
        // fake-gcs-server reads FAKE_GCS_* from its environment (one pair sends every object's events
        // to a real Pub/Sub topic): the cluster's store takes its command line alone.
        builder.environment().keySet().removeIf(k -> k.startsWith("FAKE_GCS_"));
        // A tablet server of cluster up --clocks: on a clock of its own, across restarts too.
        builder.environment().putAll(Clocks.environment(dir, name));
        return builder.start();
    }

    /** Waits for a one-time command to end well within {@code deadline}; stopped if it has not, whatever happens. */
    static void awaitEnd(Process p, String name, Path dir, Duration deadline) throws InterruptedException {
        try {
            if (!p.waitFor(deadline.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new TierproofException(name + " did not end within " + deadline.toSeconds() + " s");
            }
            if (p.exitValue() != 0) {
                throw new TierproofException(name + " failed (exit status " + p.exitValue() + "): "
                        + String.join("\n", tail(dir.resolve("logs").resolve(name + ".log"))));
            }
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** A part's command line: its program, or a JVM on its class path (its own, if it has one; else this JVM's). */
    static List<String> command(Path dir, String name, String program, String mainClass, String... args)
            throws IOException {
        // In its network namespace, when the cluster has an isolated network and the part a namespace there.
        List<String> command = new ArrayList<>(Network.execPrefix(dir, name));
        // Its own session: a Ctrl-C in the terminal that ran `up` later does not reach the servers.
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            command.add("/usr/bin/setsid");
        }
        if (program != null) {
            command.add(program);
        } else {
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.add("-Xmx512m");
            command.add("-Djava.io.tmpdir=" + Files.createDirectories(dir.resolve("tmp")));
            command.addAll(jvmFlags(mainClass));
            Path own = dir.resolve("conf").resolve(name).resolve(ProcessCluster.CLASS_PATH);
            String classPath = Files.isRegularFile(own) ? Files.readString(own).strip()
                    : ChildJvm.classPath();
            command.addAll(List.of("-cp", classPath, mainClass));
        }
        command.addAll(List.of(args));
        return command;
    }

    /** The flags of a part's JVM: this JVM's (ChildJvm), but for what its main class needs otherwise. */
    static List<String> jvmFlags(String mainClass) {
        List<String> flags = new ArrayList<>(ChildJvm.inheritedFlags());
        if (mainClass.startsWith(FLUSS_SERVERS)) {
            // As Fluss's distribution logs them: a server's INFO lines (new tables, leader changes,
            // log truncations) are the evidence a finding is checked against.
            flags.add("-Dtierproof.log.level=INFO");
        }
        if (mainClass.startsWith(FLINK_SERVERS)) {
            // The JobMaster's INFO lines, a few a job: a job's failover and its cause. Its other
            // loggers stay at WARN, as in the suite's measured runs (docs/speed.md).
            flags.add("-Dtierproof.log.jobmaster=INFO");
        }
        if (mainClass.startsWith(FLUSS_SERVERS) || mainClass.startsWith(FLINK_SERVERS)) {
            flags.add("-Dtierproof.log.exceptions=full");
        }
        return flags;
    }

    static java.io.File nullFile() {
        return new java.io.File("/dev/null");
    }

    static void stop(ProcessCluster.State.Part p) {
        p.ours().ifPresent(h -> {
            h.destroyForcibly();
            Processes.awaitEnd(h, Duration.ofSeconds(10));
        });
    }

    /** Asks part {@code p} to stop ({@code SIGTERM}); whether it ended within {@code grace} (true when not running). */
    static boolean terminate(ProcessCluster.State.Part p, Duration grace) {
        return p.ours().map(h -> {
            h.destroy();
            return Processes.awaitEnd(h, grace);
        }).orElse(true);
    }

    /** Sends signal {@code name} ({@code STOP}, {@code CONT}) to process {@code pid}, within 10 s. */
    static void signal(String name, long pid) {
        exec("kill", "-" + name, Long.toString(pid));
    }

    /** How long a one-time command of a fault or a network step may take. */
    private static final Duration COMMAND = Duration.ofSeconds(10);

    /** Runs a command within {@link #COMMAND}; its output, or a failure with what it said. */
    static String exec(String... command) {
        try {
            Path output = Files.createTempFile("tierproof-command", ".out");
            Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
            boolean ended = p.waitFor(COMMAND.toMillis(), TimeUnit.MILLISECONDS);
            byte[] out = Files.readAllBytes(output);
            Files.deleteIfExists(output);
            if (!ended) {
                p.destroyForcibly();
                throw new TierproofException(String.join(" ", command) + " did not end within " + COMMAND.toSeconds()
                        + " s");
            }
            String text = new String(out, java.nio.charset.StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new TierproofException(String.join(" ", command) + " failed: " + text.strip());
            }
            return text;
        } catch (IOException e) {
            throw new TierproofException(String.join(" ", command) + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while running " + String.join(" ", command), e);
        }
    }

    static void awaitPort(int port, Duration deadline, String what) throws InterruptedException {
        awaitPort(ProcessCluster.LOOPBACK, port, deadline, what);
    }

    /** Waits until {@code host:port} accepts a connection, within {@code deadline}. */
    static void awaitPort(String host, int port, Duration deadline, String what) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        while (System.nanoTime() < end) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new TierproofException(what + " did not listen on " + host + ":" + port + " within "
                + deadline.toSeconds() + " s");
    }

    static String logTail(Path dir, String part) {
        String name = part.startsWith("tablet server ") ? "tablet-" + part.substring("tablet server ".length())
                : switch (part) {
                    case "SeaweedFS" -> "s3";
                    case "fake-gcs-server" -> "gcs";
                    case "HDFS's NameNode" -> Hdfs.NAMENODE_PART;
                    case "HDFS's DataNode" -> Hdfs.DATANODE_PART;
                    case "ZooKeeper" -> "zookeeper";
                    case "the coordinator server" -> "coordinator";
                    case "the Flink JobManager" -> "jobmanager";
                    case "the Flink TaskManager" -> "taskmanager";
                    default -> "";
                };
        return name.isEmpty() ? "" : String.join("\n", tail(dir.resolve("logs").resolve(name + ".log")));
    }

    /** A log's last 15 lines, without any that may hold a secret (a server may log its configuration). */
    static List<String> tail(Path log) {
        try {
            if (!Files.isRegularFile(log)) {
                return List.of();
            }
            List<String> lines = Files.readAllLines(log).stream()
                    .filter(l -> !l.toLowerCase(java.util.Locale.ROOT).matches(".*(secret|password|access-key|token).*"))
                    .toList();
            List<String> last = lines.subList(Math.max(0, lines.size() - 15), lines.size());
            // A Go server's fatal line (glog's "F1206 …") comes before its stack, which fills the last lines.
            List<String> fatal = lines.stream().filter(l -> l.matches("F\\d{4} .*") && !last.contains(l)).limit(3)
                    .toList();
            return java.util.stream.Stream.concat(fatal.stream(), last.stream()).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    static boolean isEmpty(Path dir) throws IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
