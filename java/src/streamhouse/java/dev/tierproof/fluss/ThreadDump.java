package dev.tierproof.fluss;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The threads of another JVM on this machine (a JobManager tierproof started), as the JDK's
 * {@code jcmd PID Thread.print} shows them: evidence for a verdict, never needed for one, so a dump
 * that cannot be taken within its bound is an empty list.
 */
final class ThreadDump {
    private static final Pattern HEADER = Pattern.compile("^\"(.*)\" #\\d+.*");
    private static final Pattern STATE = Pattern.compile("^\\s+java\\.lang\\.Thread\\.State: ([A-Z_]+).*");
    private static final Pattern FRAME = Pattern.compile("^\\s+at ([^\\s(]+)\\.([^.\\s(]+)\\(([^)]*)\\)");
    private static final long BOUND_SECONDS = 20;

    private ThreadDump() {}

    /** The threads of {@code jvm}, or none when jcmd cannot tell within 20 s. */
    static List<TieringHang.Seen> of(ProcessHandle jvm) {
        Path out = null;
        try {
            out = Files.createTempFile("tierproof-threads-", ".txt");
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                    Long.toString(jvm.pid()), "Thread.print").redirectErrorStream(true).redirectOutput(out.toFile())
                    .start();
            if (!p.waitFor(BOUND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return List.of();
            }
            return parse(Files.readString(out, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return List.of(); // evidence only: a dump it cannot read is none, never the run's failure
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } finally {
            if (out != null) {
                out.toFile().delete();
            }
        }
    }

    /** A dump's text as threads: each with its name, state and frames (frames without a line number get -1). */
    static List<TieringHang.Seen> parse(String dump) {
        List<TieringHang.Seen> threads = new ArrayList<>();
        String name = null;
        Thread.State state = null;
        List<StackTraceElement> frames = new ArrayList<>();
        for (String line : dump.split("\n")) {
            Matcher header = HEADER.matcher(line);
            if (header.matches()) {
                if (name != null) {
                    threads.add(new TieringHang.Seen(name, state, List.copyOf(frames)));
                }
                name = header.group(1);
                state = null;
                frames.clear();
                continue;
            }
            Matcher s = STATE.matcher(line);
            Matcher f = FRAME.matcher(line);
            if (name != null && s.matches()) {
                state = Thread.State.valueOf(s.group(1));
            } else if (name != null && f.find()) {
                String where = f.group(3);
                int colon = where.lastIndexOf(':');
                int lineNumber = colon < 0 ? -1 : Integer.parseInt(where.substring(colon + 1));
                String file = colon < 0 ? null : where.substring(where.indexOf('/') + 1, colon);
                frames.add(new StackTraceElement(f.group(1), f.group(2), file, lineNumber));
            }
        }
        if (name != null) {
            threads.add(new TieringHang.Seen(name, state, List.copyOf(frames)));
        }
        return threads;
    }
}
