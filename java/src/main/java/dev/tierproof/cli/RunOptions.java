package dev.tierproof.cli;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** What every running command takes: where, how long, where the report goes, how loud. */
final class RunOptions {
    /** The whole run's budget when --timeout-s is not given: generous, but never forever. */
    static final long DEFAULT_TIMEOUT_S = 3_600;

    @Option(names = "--warehouse", paramLabel = "DIR",
            description = "keep the Paimon tables in DIR (default: a temporary warehouse, removed at the end)")
    Path warehouse;

    @Option(names = "--report", paramLabel = "FILE.json|FILE.html",
            description = "write the report there: JSON, or a page with pictures (streamhouse: tier lag over"
                    + " time) when the name ends in .html (checked writable before the run starts)")
    Path report;

    @Option(names = "--deadline-s", paramLabel = "N",
            description = "the longest any one step (a statement: planning, submission and job; a read) may take")
    Long deadlineSeconds;

    @Option(names = "--timeout-s", paramLabel = "N",
            description = "the longest the whole run may take (default " + DEFAULT_TIMEOUT_S + ")")
    Long timeoutSeconds;

    @Option(names = "--verbose", description = "print stack traces and engine warnings in full")
    boolean verbose;

    Duration deadline(long fallbackSeconds) {
        return seconds("--deadline-s", deadlineSeconds, fallbackSeconds);
    }

    Duration timeout() {
        return seconds("--timeout-s", timeoutSeconds, DEFAULT_TIMEOUT_S);
    }

    private static Duration seconds(String option, Long given, long fallback) {
        long s = given == null ? fallback : given;
        if (s < 1 || s > 86_400) {
            throw new IllegalArgumentException(option + " " + s + " must be between 1 and 86400 seconds");
        }
        return Duration.ofSeconds(s);
    }
}
