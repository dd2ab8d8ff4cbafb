package dev.tierproof.paimon;

import dev.tierproof.core.TablePaths;
import dev.tierproof.core.TierproofException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogDescriptor;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/** The Paimon filesystem catalog tierproof registers in a table environment, and its tables. */
public final class PaimonTables {
    public static final String CATALOG = "tierproof_paimon";
    public static final String DEFAULT_DATABASE = "default";

    private PaimonTables() {}

    /** Registers the catalog (by API, so the path is never spliced into SQL) and uses it. */
    public static void register(TableEnvironment tables, Path warehouse) {
        register(tables, LakeLocation.local(warehouse));
    }

    /** As above, for a warehouse anywhere Paimon reaches (its file system's settings given to the catalog). */
    public static void register(TableEnvironment tables, LakeLocation warehouse) {
        Configuration conf = new Configuration();
        conf.setString("type", "paimon");
        warehouse.catalogOptions().forEach(conf::setString);
        if (warehouse.isLocal()) {
            conf.setString("warehouse", warehouse.directory().toUri().toString());
        }
        tables.createCatalog(CATALOG, CatalogDescriptor.of(CATALOG, conf));
        tables.useCatalog(CATALOG);
    }

    /** The database and table a user's {@code table} or {@code db.table} names. */
    public static ObjectPath objectPath(String table) {
        String[] parts = TablePaths.pathParts(table);
        return switch (parts.length) {
            case 1 -> new ObjectPath(DEFAULT_DATABASE, parts[0]);
            case 2 -> new ObjectPath(parts[0], parts[1]);
            default -> throw new IllegalArgumentException(
                    "table " + table + ": give `table` or `db.table`; tierproof registers its own catalog");
        };
    }

    public static Catalog catalog(TableEnvironment tables) {
        return tables.getCatalog(CATALOG)
                .orElseThrow(() -> new TierproofException("catalog " + CATALOG + " is not registered"));
    }

    public static void createDatabaseIfMissing(TableEnvironment tables, String database) {
        try {
            catalog(tables).createDatabase(database, new CatalogDatabaseImpl(Map.of(), null), true);
        } catch (Exception e) {
            throw new TierproofException("could not create database " + database + ": " + e.getMessage(), e);
        }
    }

    public static List<String> listTables(TableEnvironment tables, String database) {
        try {
            return catalog(tables).listTables(database);
        } catch (Exception e) {
            throw new TierproofException("could not list tables of " + database + ": " + e.getMessage(), e);
        }
    }

    /** Whether the table has a primary key. */
    public static boolean hasPrimaryKey(TableEnvironment tables, ObjectPath path) {
        try {
            return catalog(tables).getTable(path).getUnresolvedSchema().getPrimaryKey().isPresent();
        } catch (Exception e) {
            throw new TierproofException("could not open table " + path.getFullName() + ": " + e.getMessage(), e);
        }
    }
}
