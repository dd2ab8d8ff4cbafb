package dev.tierproof.paimon;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Where a Paimon warehouse is and how to reach it: a local directory, {@code s3://bucket/path}
 * with the S3 settings Paimon's {@code paimon-s3} file system takes ({@code s3.endpoint},
 * {@code s3.access-key}, …), {@code hdfs://namenode:port/path} through Hadoop's own client
 * ({@code hadoop.*} settings, which Paimon hands to Hadoop without the prefix; Paimon reads
 * {@code HADOOP_CONF_DIR} itself), or {@code gs://bucket/path} through Google's GCS connector for
 * Hadoop, which Paimon falls back to for a scheme it has no file system of its own for
 * ({@code hadoop.fs.gs.*} settings). The settings may hold secrets: they go to Paimon, Fluss and the
 * tiering job, never into a message, a report or {@link #toString()}.
 */
public final class LakeLocation {
    /** S3's own rule for a bucket's name (lower case letters, digits, dots and hyphens). */
    private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");
    /** A key's path segments: no {@code .}, {@code ..} or empty segment can lead anywhere else. */
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]*");
    /** The settings an s3 {@code --conf} file may hold (Paimon hands {@code s3.*} to Hadoop's S3A). */
    private static final Pattern S3_SETTING = Pattern.compile("s3\\.[a-z0-9.-]+");
    /** The settings an hdfs {@code --conf} file may hold (Paimon hands {@code hadoop.*} to Hadoop's client). */
    private static final Pattern HADOOP_SETTING = Pattern.compile("hadoop\\.[A-Za-z0-9._-]+");
    /** The settings a gs {@code --conf} file may hold: the GCS connector's, for Paimon to hand to Hadoop. */
    private static final Pattern GCS_SETTING = Pattern.compile("hadoop\\.fs\\.gs\\.[A-Za-z0-9._-]+");
    /** Google's rule for a bucket's name (its dotted form aside): lower case letters, digits, _ and -. */
    private static final Pattern GCS_BUCKET = Pattern.compile("[a-z0-9][a-z0-9_-]{1,61}[a-z0-9]");
    /** A name node's host (a name or an IPv4 address; a nameservice of HADOOP_CONF_DIR) and its port. */
    private static final Pattern NAMENODE = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?"
            + "(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?");

    private final String warehouse;
    private final Path local;
    private final Map<String, String> fileSystem;

    private LakeLocation(String warehouse, Path local, Map<String, String> fileSystem) {
        this.warehouse = warehouse;
        this.local = local;
        this.fileSystem = Collections.unmodifiableMap(new TreeMap<>(fileSystem));
    }

    /** A warehouse in a local directory. */
    public static LakeLocation local(Path directory) {
        Path abs = directory.toAbsolutePath().normalize();
        return new LakeLocation(abs.toString(), abs, Map.of());
    }

    /** Whether {@code given} names an object store ({@code scheme://…}) rather than a directory. */
    public static boolean isUri(String given) {
        return given.contains("://");
    }

    /**
     * The warehouse {@code given} names: a directory; {@code s3://bucket/path} whose settings
     * come from {@code conf} (a properties file of {@code s3.*} keys; null: none) over the
     * environment's {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY},
     * {@code AWS_SESSION_TOKEN}, {@code AWS_ENDPOINT_URL_S3} / {@code AWS_ENDPOINT_URL} and
     * {@code AWS_REGION}; or
     * {@code hdfs://namenode:port/path}, its settings from {@code conf} ({@code hadoop.*} keys); or
     * {@code gs://bucket/path}, its settings from {@code conf} ({@code hadoop.fs.gs.*} keys), with
     * Google's application default credentials when the environment names a credentials file
     * ({@code GOOGLE_APPLICATION_CREDENTIALS}) and the file names no account.
     * Checked before anything runs; the messages name the value, never a secret.
     */
    public static LakeLocation parse(String option, String given, Path conf, Map<String, String> env) {
        if (!isUri(given)) {
            if (conf != null) {
                throw new IllegalArgumentException("--conf " + conf + " holds an object store's settings, but "
                        + option + " " + given + " is a local directory");
            }
            return local(Path.of(given));
        }
        String scheme = given.substring(0, given.indexOf("://"));
        return switch (scheme) {
            case "s3" -> s3(option, given, conf, env);
            case "hdfs" -> hdfs(option, given, conf);
            case "gs" -> gcs(option, given, conf, env);
            default -> throw new IllegalArgumentException(option + " " + given + ": the scheme " + scheme
                    + " is not one tierproof runs (a local directory, s3://BUCKET/PATH, hdfs://NAMENODE:PORT/PATH"
                    + " or gs://BUCKET/PATH)");
        };
    }

    private static LakeLocation s3(String option, String given, Path conf, Map<String, String> env) {
        String rest = trimmed(given.substring("s3://".length()));
        String[] parts = rest.split("/", -1);
        if (!BUCKET.matcher(parts[0]).matches()) {
            throw new IllegalArgumentException(option + " " + given + ": " + (parts[0].isEmpty() ? "no bucket"
                    : "the bucket " + parts[0] + " is not a valid S3 bucket name")
                    + " (s3://BUCKET/PATH: lower case letters, digits, . and -)");
        }
        checkSegments(option, given, parts);
        Map<String, String> settings = new LinkedHashMap<>(fromEnvironment(env));
        if (conf != null) {
            Map<String, String> fromFile = read(conf, S3_SETTING, "an S3 setting (s3.endpoint, s3.access-key,"
                    + " s3.secret-key, s3.session.token, s3.path.style.access, …)");
            if (fromFile.containsKey("s3.access-key") && !fromFile.containsKey("s3.session.token")) {
                // The environment's session token belongs to the environment's key, not to the file's.
                settings.remove("s3.session.token");
            }
            settings.putAll(fromFile);
        }
        if (!settings.containsKey("s3.access-key") || !settings.containsKey("s3.secret-key")) {
            throw new IllegalArgumentException(option + " " + given + " needs credentials: s3.access-key and"
                    + " s3.secret-key in --conf FILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY in the"
                    + " environment");
        }
        return new LakeLocation("s3://" + rest, null, settings);
    }

    private static LakeLocation hdfs(String option, String given, Path conf) {
        String rest = trimmed(given.substring("hdfs://".length()));
        String[] parts = rest.split("/", -1);
        if (!NAMENODE.matcher(parts[0]).matches()) {
            throw new IllegalArgumentException(option + " " + given + ": " + (parts[0].isEmpty()
                    ? "no name node (hdfs:///PATH leaves it to a default file system tierproof does not read)"
                    : "the name node " + parts[0] + " is not HOST or HOST:PORT")
                    + " (hdfs://NAMENODE:PORT/PATH)");
        }
        requirePath(option, given, parts, "the file system", "hdfs://NAMENODE:PORT/PATH");
        checkSegments(option, given, parts);
        Map<String, String> settings = conf == null ? Map.of()
                : read(conf, HADOOP_SETTING, "a Hadoop setting (hadoop.KEY, e.g. hadoop.dfs.client.use.datanode.hostname)");
        return new LakeLocation("hdfs://" + rest, null, settings);
    }

    private static LakeLocation gcs(String option, String given, Path conf, Map<String, String> env) {
        String rest = trimmed(given.substring("gs://".length()));
        String[] parts = rest.split("/", -1);
        if (!GCS_BUCKET.matcher(parts[0]).matches()) {
            throw new IllegalArgumentException(option + " " + given + ": " + (parts[0].isEmpty() ? "no bucket"
                    : "the bucket " + parts[0] + " is not a GCS bucket name tierproof takes")
                    + " (gs://BUCKET/PATH: lower case letters, digits, _ and -)");
        }
        // The connector makes a bucket for a bucket-level mkdirs: a mistyped one would be created.
        requirePath(option, given, parts, "the bucket", "gs://BUCKET/PATH");
        checkSegments(option, given, parts);
        Map<String, String> settings = new LinkedHashMap<>();
        String credentials = env.get("GOOGLE_APPLICATION_CREDENTIALS");
        Map<String, String> fromFile = conf == null ? Map.of()
                : read(conf, GCS_SETTING, "a GCS connector setting (hadoop.fs.gs.KEY, e.g. hadoop.fs.gs.auth.type)");
        if (credentials != null && !credentials.isBlank() && !fromFile.containsKey("hadoop.fs.gs.auth.type")) {
            // The connector's own default is the machine's metadata server (COMPUTE_ENGINE); a credentials
            // file in the environment is the user's choice, read as Google's libraries read it (a service
            // account's key, gcloud's user login, workload identity), wherever the deployment runs.
            settings.put("hadoop.fs.gs.auth.type", "APPLICATION_DEFAULT");
        }
        settings.putAll(fromFile);
        return new LakeLocation("gs://" + rest, null, settings);
    }

    /** A path below the root ({@code parts[0]} is the bucket or name node): never the store's root itself. */
    private static void requirePath(String option, String given, String[] parts, String store, String form) {
        if (parts.length < 2) {
            throw new IllegalArgumentException(option + " " + given + ": no path: tierproof keeps its tables in a"
                    + " directory of " + store + ", never at its root (" + form + ")");
        }
    }

    /** Without trailing slashes. */
    private static String trimmed(String rest) {
        while (rest.endsWith("/")) {
            rest = rest.substring(0, rest.length() - 1);
        }
        return rest;
    }

    /** Every path segment after the first (a bucket or a name node): none can lead anywhere else. */
    private static void checkSegments(String option, String given, String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            if (!SEGMENT.matcher(parts[i]).matches()) {
                throw new IllegalArgumentException(option + " " + given + ": the path segment \"" + parts[i]
                        + "\" is not allowed (letters, digits, _, . and -, not starting with a dot; no empty"
                        + " segment)");
            }
        }
    }

    private static Map<String, String> fromEnvironment(Map<String, String> env) {
        Map<String, String> s = new LinkedHashMap<>();
        putIfSet(s, "s3.access-key", env.get("AWS_ACCESS_KEY_ID"));
        putIfSet(s, "s3.secret-key", env.get("AWS_SECRET_ACCESS_KEY"));
        // Temporary credentials: Hadoop's S3A (3.3 in paimon-s3) tries its session-token provider first.
        putIfSet(s, "s3.session.token", env.get("AWS_SESSION_TOKEN"));
        String endpoint = env.get("AWS_ENDPOINT_URL_S3") != null ? env.get("AWS_ENDPOINT_URL_S3")
                : env.get("AWS_ENDPOINT_URL");
        if (endpoint != null && !endpoint.isBlank()) {
            s.put("s3.endpoint", endpoint);
            // An endpoint of one's own is an S3-compatible store, most of which serve paths, not hosts.
            s.put("s3.path.style.access", "true");
        }
        putIfSet(s, "s3.endpoint.region", env.get("AWS_REGION"));
        return s;
    }

    private static void putIfSet(Map<String, String> s, String key, String value) {
        if (value != null && !value.isBlank()) {
            s.put(key, value);
        }
    }

    private static Map<String, String> read(Path conf, Pattern allowed, String what) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(conf)) {
            p.load(r);
        } catch (IOException e) {
            throw new IllegalArgumentException("--conf " + conf + " cannot be read: " + e.getMessage(), e);
        }
        Map<String, String> s = new LinkedHashMap<>();
        for (String key : p.stringPropertyNames()) {
            if (!allowed.matcher(key).matches()) {
                // A line holding only a secret would be read as a key: such a key is not echoed.
                String named = key.matches("[A-Za-z0-9._-]{1,64}") && !key.matches("[A-Za-z0-9]{16,}")
                        ? "the key " + key : "a key (not shown: it may be a secret)";
                throw new IllegalArgumentException("--conf " + conf + ": " + named + " is not " + what);
            }
            s.put(key, p.getProperty(key).strip());
        }
        return s;
    }

    /** The warehouse as Paimon's {@code warehouse} option takes it: a path, or an s3, hdfs or gs URI. */
    public String warehouse() {
        return warehouse;
    }

    public boolean isLocal() {
        return local != null;
    }

    /** The local directory; only for a local warehouse. */
    public Path directory() {
        if (local == null) {
            throw new IllegalStateException("the warehouse " + warehouse + " is not a local directory");
        }
        return local;
    }

    /**
     * How long an S3 call may take, unless the settings say otherwise: Hadoop's S3A defaults (20
     * attempts, 7 retries, a 200 s socket timeout) would let an unreachable endpoint hold a step
     * for many minutes.
     */
    private static final Map<String, String> S3_BOUNDS = Map.of(
            "s3.attempts.maximum", "3",
            "s3.retry.limit", "2",
            "s3.connection.establish.timeout", "5000",
            "s3.connection.timeout", "30000");

    /**
     * How long tierproof's own calls to a name node may take: Hadoop's IPC defaults (a 20 s
     * connect timeout, retried 45 times) would hold a step for 15 minutes on an unanswered one.
     * With a client of their own (Hadoop caches one per name node and JVM otherwise), so that the
     * bounds never reach the deployment's client (an embedded tiering job shares this JVM). A call
     * is tried once more after 300 ms: Hadoop keeps an idle connection for 10 s without reading
     * it, so the first call after the name node restarted (restart-lake) fails on the dead one
     * with an EOFException, and the second succeeds (seen: a catalog made right after the restart
     * failed the run).
     */
    private static final Map<String, String> HDFS_BOUNDS = Map.of(
            "hadoop.fs.hdfs.impl.disable.cache", "true",
            "hadoop.ipc.client.connect.timeout", "5000",
            "hadoop.ipc.client.connect.max.retries", "2",
            "hadoop.ipc.client.connect.max.retries.on.timeouts", "2",
            "hadoop.dfs.client.retry.policy.enabled", "true",
            "hadoop.dfs.client.retry.policy.spec", "300,1");

    /**
     * How many times tierproof's own calls to GCS are tried: the connector retries a call 10
     * times, with a growing backoff (its 5 s connect and read timeouts are short already). On a
     * client of their own, as for HDFS: Hadoop caches one per bucket and JVM, and the bound must
     * not reach the deployment's.
     */
    private static final Map<String, String> GCS_BOUNDS = Map.of(
            "hadoop.fs.gs.impl.disable.cache", "true",
            "hadoop.fs.gs.http.max.retry", "2");

    /** Everything Paimon's catalog needs: the warehouse and the file system's settings. */
    public Map<String, String> catalogOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        if (warehouse.startsWith("s3://")) {
            o.putAll(S3_BOUNDS);
        } else if (warehouse.startsWith("hdfs://")) {
            o.putAll(HDFS_BOUNDS);
        } else if (warehouse.startsWith("gs://")) {
            o.putAll(GCS_BOUNDS);
        }
        o.putAll(fileSystem);
        o.put("warehouse", warehouse);
        return o;
    }

    /**
     * What the deployment itself gets (the lake tiering job, the Fluss servers): the warehouse
     * and the user's settings, without tierproof's bounds on the store's retries. Those keep
     * tierproof's own steps from hanging; given to the deployment, they would make it fail
     * sooner than it does as users run it, and its failures would be tierproof's making.
     */
    public Map<String, String> deploymentOptions() {
        Map<String, String> o = new LinkedHashMap<>(fileSystem);
        o.put("warehouse", warehouse);
        return o;
    }

    /** The deployment's options as a Fluss server's {@code datalake.paimon.*} options (a filesystem metastore). */
    public Map<String, String> flussClusterOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("datalake.format", "paimon");
        o.put("datalake.paimon.metastore", "filesystem");
        deploymentOptions().forEach((k, v) -> o.put("datalake.paimon." + k, v));
        return o;
    }

    /** The file system's settings alone (secrets included): for a reader that brings its own, as Fluss's catalog. */
    public Map<String, String> fileSystemSettings() {
        return fileSystem;
    }

    /** The warehouse and nothing else: never a secret. */
    @Override
    public String toString() {
        return warehouse;
    }
}
