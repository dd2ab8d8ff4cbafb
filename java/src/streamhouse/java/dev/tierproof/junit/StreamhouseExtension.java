package dev.tierproof.junit;

import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.LocalFlussCluster;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.util.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A streamhouse for a JVM integration test: a real Fluss cluster (ZooKeeper, a coordinator and
 * tablet servers, on loopback) with a Paimon lake in a directory of its own, an embedded Flink
 * engine, and Fluss's tiering job running on it, for all the tests of a class; stopped and
 * removed after them. Register it on a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final StreamhouseExtension STREAMHOUSE = StreamhouseExtension.builder().tabletServers(2).build();
 * }</pre>
 *
 * then write with plain Flink SQL ({@link #tables()}: the Fluss catalog, database {@code fluss})
 * and assert with {@code TierproofAssertions.assertThat(STREAMHOUSE.table("fluss.orders"))
 * .tiersConsistently()}.
 */
public final class StreamhouseExtension implements BeforeAllCallback, AfterAllCallback {
    private final Builder settings;
    private Path directory;
    private LocalFlussCluster cluster;
    private FlinkEngine engine;
    private Tiering tiering;

    private StreamhouseExtension(Builder settings) {
        this.settings = settings;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How the streamhouse is made; every setting has a default fit for a test. */
    public static final class Builder {
        private int tabletServers = 1;
        private int defaultBuckets = 1;
        private int slots = 8;
        private Duration tieringPoll = Duration.ofMillis(500);
        private Duration tieringWait = Duration.ofSeconds(90);
        private Duration readDeadline = Duration.ofSeconds(120);

        private Builder() {}

        /** Tablet servers, 1 to 8 (default 1). */
        public Builder tabletServers(int n) {
            if (n < 1 || n > 8) {
                throw new IllegalArgumentException("tabletServers " + n + " must be between 1 and 8");
            }
            tabletServers = n;
            return this;
        }

        /** Buckets of a table whose DDL names none ({@code default.bucket.number}; default 1). */
        public Builder defaultBuckets(int n) {
            if (n < 1 || n > 1024) {
                throw new IllegalArgumentException("defaultBuckets " + n + " must be between 1 and 1024");
            }
            defaultBuckets = n;
            return this;
        }

        /** Task slots of the embedded Flink engine (default 8: the tiering job and the reads). */
        public Builder slots(int n) {
            if (n < 2 || n > 64) {
                throw new IllegalArgumentException("slots " + n + " must be between 2 and 64");
            }
            slots = n;
            return this;
        }

        /**
         * How often the tiering job asks for a table to tier (default 500 ms; Fluss's own default
         * is 30 s). A table's {@code table.datalake.freshness} is its DDL's.
         */
        public Builder tieringPoll(Duration d) {
            tieringPoll = positive("tieringPoll", d);
            return this;
        }

        /** How long an assertion waits for tiering to catch up with the log (default 90 s). */
        public Builder tieringWait(Duration d) {
            tieringWait = positive("tieringWait", d);
            return this;
        }

        /** The longest any one read of an assertion may take (default 120 s). */
        public Builder readDeadline(Duration d) {
            readDeadline = positive("readDeadline", d);
            return this;
        }

        public StreamhouseExtension build() {
            return new StreamhouseExtension(this);
        }

        private static Duration positive(String name, Duration d) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " " + d + " must be positive");
            }
            return d;
        }
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        directory = Files.createTempDirectory("tierproof-streamhouse-");
        try {
            Path lake = Files.createDirectories(directory.resolve("lake"));
            Map<String, String> options = new HashMap<>(Tiering.clusterOptions(lake));
            options.put("default.bucket.number", Integer.toString(settings.defaultBuckets));
            cluster = LocalFlussCluster.start(settings.tabletServers, options,
                    Files.createDirectories(directory.resolve("fluss")));
            engine = FlinkEngine.start(settings.slots, Files.createDirectories(directory.resolve("flink")));
            tiering = Tiering.start(engine, cluster, lake, settings.tieringPoll);
        } catch (Exception | Error e) {
            afterAll(context);
            throw e;
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try (AutoCloseable c = cluster; AutoCloseable f = engine; AutoCloseable t = tiering) {
            // closed in reverse order: the tiering job, the engine, the cluster
        } catch (Exception e) {
            throw new IllegalStateException("stopping the streamhouse failed: " + e.getMessage(), e);
        } finally {
            tiering = null;
            engine = null;
            cluster = null;
            if (directory != null) {
                Directories.deleteRecursively(directory);
                directory = null;
            }
        }
    }

    /** A batch table environment with the Fluss catalog in use (database {@code fluss}), for plain Flink SQL. */
    public TableEnvironment tables() {
        return FlussCatalog.register(running().engine.batchTables(), cluster);
    }

    /** A streaming table environment with the Fluss catalog in use (database {@code fluss}). */
    public TableEnvironment streamingTables() {
        return FlussCatalog.register(running().engine.streamingTables(), cluster);
    }

    /** The Fluss coordinator's address, for a Fluss client of the test's own. */
    public String bootstrapServers() {
        return running().cluster.bootstrapServers();
    }

    /** The Paimon warehouse the cluster tiers into. */
    public Path warehouse() {
        return running().directory.resolve("lake");
    }

    /** A table of the cluster ({@code database.table}), for assertions. */
    public TieredTable table(String name) {
        String[] parts = name.split("\\.", -1);
        if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty()) {
            throw new IllegalArgumentException("table " + name + " is not DATABASE.TABLE");
        }
        return new TieredTable(this, TablePath.of(parts[0], parts[1]));
    }

    LocalFlussCluster cluster() {
        return running().cluster;
    }

    FlinkEngine engine() {
        return running().engine;
    }

    Duration tieringWait() {
        return settings.tieringWait;
    }

    Duration readDeadline() {
        return settings.readDeadline;
    }

    /** Why the tiering job has failed, or null while it runs. */
    String tieringFailure() {
        return running().tiering.failure();
    }

    private StreamhouseExtension running() {
        if (cluster == null) {
            throw new IllegalStateException("the streamhouse starts before the class's tests: register the"
                    + " extension on a static field with @RegisterExtension");
        }
        return this;
    }
}
