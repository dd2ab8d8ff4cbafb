package dev.tierproof.cli;

import dev.tierproof.paimon.LakeLocation;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/** What every running command takes: where, how long, where the report goes, how loud. */
final class RunOptions {
    /** The whole run's budget when --timeout-s is not given: generous, but never forever. */
    static final long DEFAULT_TIMEOUT_S = 3_600;

    @Option(names = "--warehouse", paramLabel = "DIR",
            description = "keep the Paimon tables in DIR (default: a temporary warehouse, removed at the end);"
                    + " streamhouse: also s3://BUCKET/PATH, hdfs://NAMENODE:PORT/PATH or gs://BUCKET/PATH, with"
                    + " --conf")
    String warehouse;

    @Option(names = "--conf", paramLabel = "FILE", description = "an s3:// warehouse's settings: a properties file"
            + " of s3.endpoint, s3.access-key, s3.secret-key, s3.session.token, s3.path.style.access, … (default:"
            + " AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, AWS_ENDPOINT_URL and AWS_REGION from the"
            + " environment); an hdfs:// one's:"
            + " hadoop.KEY=VALUE lines (and HADOOP_CONF_DIR, HADOOP_USER_NAME from the environment); a gs:// one's:"
            + " hadoop.fs.gs.KEY=VALUE lines, the GCS connector's (default: the machine's own account, or"
            + " GOOGLE_APPLICATION_CREDENTIALS's key file)")
    Path conf;

    /** {@code --warehouse} for a command that keeps its tables in a local directory (null: none given). */
    Path localWarehouse(String command) {
        if (warehouse != null && LakeLocation.isUri(warehouse)) {
            throw new IllegalArgumentException("--warehouse " + warehouse + ": " + command + " keeps its tables in a"
                    + " local directory; an object store warehouse is for streamhouse and audit");
        }
        if (conf != null) {
            throw new IllegalArgumentException("--conf " + conf + " is for an s3://, hdfs:// or gs:// --warehouse"
                    + " of streamhouse or audit");
        }
        return warehouse == null ? null : Path.of(warehouse);
    }

    /** {@code --warehouse} wherever Paimon reaches it (null: none given), its settings from --conf or the environment. */
    LakeLocation lake() {
        if (warehouse == null) {
            if (conf != null) {
                throw new IllegalArgumentException("--conf " + conf + " needs --warehouse s3://BUCKET/PATH,"
                        + " hdfs://NAMENODE:PORT/PATH or gs://BUCKET/PATH");
            }
            return null;
        }
        return LakeLocation.parse("--warehouse", warehouse, conf, System.getenv());
    }

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
