package dev.tierproof.run;

import java.io.PrintStream;

/**
 * Progress of long steps, one line a step on stderr, counts at most about once a second. Steps
 * may run side by side: lines never interleave, and a count that is not due costs one read.
 */
public final class Progress {
    private final PrintStream out;
    private final long start = System.nanoTime();
    private volatile long lastCount;

    private Progress(PrintStream out) {
        this.out = out;
    }

    public static Progress to(PrintStream out) {
        return new Progress(out);
    }

    /** Progress that prints nothing (tests). */
    public static Progress silent() {
        return new Progress(null);
    }

    public synchronized void step(String message) {
        if (out != null) {
            out.printf("[%6.1fs] %s%n", elapsedSeconds(), message);
        }
    }

    public void count(String what, long done) {
        count(what, done, -1);
    }

    public void count(String what, long done, long total) {
        if (out == null) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastCount < 1_000_000_000L && done != total) {
            return;
        }
        print(what, done, total, now);
    }

    private synchronized void print(String what, long done, long total, long now) {
        lastCount = now;
        String of = total >= 0 ? done + "/" + total : String.valueOf(done);
        out.printf("[%6.1fs]   %s: %s%n", elapsedSeconds(), what, of);
    }

    public double elapsedSeconds() {
        return (System.nanoTime() - start) / 1e9;
    }
}
