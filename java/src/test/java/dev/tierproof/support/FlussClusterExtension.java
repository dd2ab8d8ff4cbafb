package dev.tierproof.support;

import dev.tierproof.fluss.LocalFlussCluster;
import dev.tierproof.fluss.MissedTable;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.util.Directories;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Fluss cluster (ZooKeeper, coordinator, tablet servers) with a Paimon lake in a warehouse
 * of its own, for all the tests of a class, as Fluss's own {@code FlussClusterExtension} gives
 * one: {@code @RegisterExtension static final FlussClusterExtension FLUSS = new
 * FlussClusterExtension(1);} then {@code FLUSS.cluster()} and {@code FLUSS.warehouse()}.
 */
public final class FlussClusterExtension implements BeforeAllCallback, AfterAllCallback {
    private final int tabletServers;
    private Path warehouse;
    private LocalFlussCluster cluster;

    public FlussClusterExtension(int tabletServers) {
        this.tabletServers = tabletServers;
    }

    public LocalFlussCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("the cluster starts before the class's tests: register the extension"
                    + " on a static field");
        }
        return cluster;
    }

    /**
     * After a test made table {@code db.table}: a coordinator that missed it (Fluss 0.9.1,
     * apache/fluss#1018, about one table in a hundred on a loaded machine) is restarted, as the
     * streamhouse proof does on its own clusters, and the test's output says so.
     */
    public void created(String db, String table) {
        MissedTable.check(cluster(), TablePath.of(db, table), System.err::println).ifPresent(System.err::println);
    }

    /** The Paimon warehouse the cluster tiers into. */
    public Path warehouse() {
        return warehouse;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        warehouse = Files.createTempDirectory("tierproof-lake-");
        Map<String, String> lake = Tiering.clusterOptions(warehouse);
        cluster = LocalFlussCluster.start(tabletServers, lake);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (cluster != null) {
                cluster.close();
            }
        } finally {
            cluster = null;
            if (warehouse != null) {
                Directories.deleteRecursively(warehouse);
            }
        }
    }
}
