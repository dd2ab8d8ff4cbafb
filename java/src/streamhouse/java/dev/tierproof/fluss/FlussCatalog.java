package dev.tierproof.fluss;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.TablePaths;
import dev.tierproof.paimon.LakeLocation;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.CatalogDescriptor;

/**
 * Where the streamhouse proof's tables live (Fluss and Paimon database {@value #FLUSS_DATABASE}),
 * the generated {@code (id INT, bal INT)} Fluss table, the Fluss catalog registered by API, and
 * how often tiering polls. The proof itself is in {@code dev.tierproof.proof}.
 */
public final class FlussCatalog {
    public static final String FLUSS_CATALOG = "tierproof_fluss";
    public static final String FLUSS_DATABASE = "fluss";
    static final String FRESHNESS = "1s";
    static final Duration TIERING_POLL = Duration.ofMillis(500);

    private FlussCatalog() {}

    /**
     * The Fluss DDL of the {@code (id INT, bal INT)} table {@code table}, checked (a plain name
     * Fluss accepts) before anything starts.
     */
    public static String tieredTableDdl(String table) {
        if (TablePaths.pathParts(table).length != 1) {
            throw new IllegalArgumentException("--table " + table + ": give a plain table name; it lives in "
                    + "Fluss database " + FLUSS_DATABASE + " and Paimon database " + FLUSS_DATABASE);
        }
        return Ddl.flussTierTableDdl(table, FRESHNESS);
    }

    /** A table environment with the Fluss catalog registered (by API) and in use. */
    public static TableEnvironment register(TableEnvironment tables, FlussCluster cluster) {
        return use(tables, cluster, null, FLUSS_CATALOG, FLUSS_DATABASE);
    }

    /** As above, for a cluster whose lake is {@code lake} (its settings given to the union read). */
    public static TableEnvironment register(TableEnvironment tables, FlussCluster cluster, LakeLocation lake,
            String database) {
        return use(tables, cluster, lake, FLUSS_CATALOG, database);
    }

    /**
     * A table environment with {@code cluster}'s Fluss catalog registered as {@code name} (in this
     * JVM only; once) and in use, in {@code database} (which Fluss's catalog checks exists). Fluss
     * hands its clients the lake's settings without the secrets (keys naming a key, a secret or a
     * password): a reader of the lake brings them, as {@code paimon.*} options of the catalog.
     */
    public static TableEnvironment use(TableEnvironment tables, FlussCluster cluster, LakeLocation lake, String name,
            String database) {
        if (tables.getCatalog(name).isEmpty()) {
            Configuration conf = new Configuration();
            conf.setString("type", "fluss");
            conf.setString("bootstrap.servers", cluster.bootstrapServers());
            conf.setString("default-database", database);
            if (lake != null) {
                lake.fileSystemSettings().forEach((k, v) -> conf.setString("paimon." + k, v));
            }
            tables.createCatalog(name, CatalogDescriptor.of(name, conf));
        }
        tables.useCatalog(name);
        tables.useDatabase(database);
        return tables;
    }
}
