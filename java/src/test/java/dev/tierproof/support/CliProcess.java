package dev.tierproof.support;

import dev.tierproof.util.ChildJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The command line as its own JVM, the way a user runs it: for what only a process shows (exit
 * status on a signal, files left behind, an abandoned planner thread). Its temporary directory is
 * {@code tmp}, so a test can see everything the run leaves there.
 */
public final class CliProcess {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    private CliProcess(Process process, Path stdout, Path stderr) {
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
    }

    /** Starts {@code tierproof args...} with {@code tmp} as its java.io.tmpdir; output goes to {@code logs}. */
    public static CliProcess start(Path tmp, Path logs, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        // As from a terminal: a shell without job control starts background commands with SIGINT
        // ignored, and a JVM started so never sees Ctrl-C; env restores the default.
        cmd.addAll(List.of("env", "--default-signal=INT"));
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(Arrays.asList(System.getProperty("tierproof.jvm.opens", "").trim().split("\\s+")));
        cmd.addAll(ChildJvm.inheritedFlags());
        cmd.add("-Xmx2g");
        cmd.add("-Djava.io.tmpdir=" + tmp);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("dev.tierproof.cli.Main");
        cmd.addAll(Arrays.asList(args));
        Files.createDirectories(tmp);
        Files.createDirectories(logs);
        Path out = Files.createTempFile(logs, "out-", ".txt");
        Path err = Files.createTempFile(logs, "err-", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        return new CliProcess(p, out, err);
    }

    public long pid() {
        return process.pid();
    }

    /** Waits until stderr holds {@code text}; false when the process ends or time runs out first. */
    public boolean awaitErr(String text, Duration limit) throws IOException, InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < end) {
            if (err().contains(text)) {
                return true;
            }
            if (!process.isAlive()) {
                return err().contains(text);
            }
            Thread.sleep(100);
        }
        return false;
    }

    /** Sends a signal by name (INT, TERM, KILL). */
    public void signal(String name) throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start().waitFor();
    }

    /** The exit status, waiting at most {@code limit} (then the process is killed and this fails). */
    public int exitStatus(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("the command did not end within " + limit.toSeconds() + " s");
        }
        return process.exitValue();
    }

    public String out() throws IOException {
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }

    public String err() throws IOException {
        return Files.readString(stderr, StandardCharsets.UTF_8);
    }
}
