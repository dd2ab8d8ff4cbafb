package dev.tierproof.util;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Whether a process still runs, as people mean it. */
public final class Processes {
    private static final Path PROC = Path.of("/proc");

    private Processes() {}

    /**
     * Whether {@code h} runs: alive and not a zombie. The JDK counts a zombie (a process that has
     * ended but whose exit its parent has not collected yet) as alive; a server this JVM started
     * and then killed is one for as long as the JDK's reaper thread has not run, which on a busy
     * machine can be long enough for a check to see it.
     */
    public static boolean running(ProcessHandle h) {
        return h.isAlive() && state(h.pid()) != 'Z';
    }

    /** Whether the process with this pid runs (see {@link #running(ProcessHandle)}). */
    public static boolean running(long pid) {
        return ProcessHandle.of(pid).map(Processes::running).orElse(false);
    }

    /**
     * Waits until {@code h} no longer {@link #running runs}, at most {@code within}; whether it ended.
     * For a process this JVM did not start, the JDK's {@code onExit()} polls at growing intervals
     * (a server that stopped in 0.3 s was seen to end 2 s later); this looks every 50 ms.
     */
    public static boolean awaitEnd(ProcessHandle h, java.time.Duration within) {
        long end = System.nanoTime() + within.toNanos();
        while (running(h)) {
            if (System.nanoTime() - end >= 0) {
                return false;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return !running(h);
            }
        }
        return true;
    }

    /**
     * The state letter {@code /proc/PID/stat} gives ({@code R}, {@code S}, {@code Z}…); {@code '?'}
     * where the system has no /proc, {@code 'X'} for a process that is gone.
     */
    public static char state(long pid) {
        if (!Files.isDirectory(PROC.resolve("self"))) {
            return '?';
        }
        try {
            String stat = Files.readString(PROC.resolve(String.valueOf(pid)).resolve("stat"));
            // "pid (command) S ...": the command may hold spaces and parentheses; the state follows the last ')'.
            int close = stat.lastIndexOf(')');
            return close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
        } catch (NoSuchFileException e) {
            return 'X';
        } catch (IOException e) {
            return '?';
        }
    }
}
