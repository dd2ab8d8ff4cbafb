package dev.tierproof.proof;

import dev.tierproof.fluss.Clients;
import dev.tierproof.core.CheckedDdl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.flink.Statements;
import dev.tierproof.fluss.BucketLeaders;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.FlussCluster;
import dev.tierproof.fluss.MissedTable;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.paimon.PaimonLake;
import dev.tierproof.paimon.PaimonTables;
import dev.tierproof.run.Steps;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;

/**
 * The proof's first stage: the Fluss table (and so its lake table) created from the user's DDL,
 * in a database made if missing; each thing made is registered to be undone if the run fails.
 */
final class StreamhouseTable {
    /**
     * The table made (and its id, as Fluss's servers name it), the Flink catalog of Fluss (batch) the
     * proof writes and reads it through, and what making it met that is a finding of its own (a
     * coordinator that missed it).
     */
    record Created(String db, String table, TablePath path, long id, TableEnvironment flussBatch,
            List<String> setupFindings) {}

    /** The new table's id, and what serving it met that is a finding of its own. */
    private record Served(long id, List<String> findings) {}

    private StreamhouseTable() {}

    /** Creates the table; refused, before anything is made, when its lake table exists already. */
    static Created create(FlussCluster cluster, FlinkEngine engine, StreamhouseProof.Config cfg, Steps steps,
            Map<String, Long> timings) {
        CheckedDdl ddl = cfg.workload().table();
        String db = cfg.database();
        String table = StreamhouseProof.tableName(ddl, db);
        String where = " in the warehouse " + cfg.warehouse();
        if (PaimonLake.tableExists(cfg.warehouse(), db, table)) {
            throw new IllegalArgumentException("table " + db + "." + table + " already exists" + where
                    + "; tierproof never writes to a table it did not create: choose another name or --warehouse");
        }
        boolean lakeDatabaseExisted = PaimonLake.databaseExists(cfg.warehouse(), db);
        createDatabaseIfMissing(cluster, db, steps);
        TableEnvironment flussBatch = utc(FlussCatalog.register(engine.batchTables(), cluster, cfg.warehouse(), db));

        long t = System.nanoTime();
        steps.progress().step("creating Fluss table " + db + "." + table + " (datalake enabled)");
        if (!lakeDatabaseExisted) {
            steps.undo().created("database " + db + where, () -> PaimonLake.dropDatabaseIfEmpty(cfg.warehouse(), db));
        }
        steps.undo().created("lake table " + db + "." + table + where,
                () -> PaimonLake.dropTable(cfg.warehouse(), db, table));
        try {
            // A column the schedule adds later (add-column) is not there yet.
            String created = cfg.addsColumnAt().isPresent() ? cfg.workload().addedColumn().ddlBefore() : ddl.sql();
            Statements.execute(steps, flussBatch, "CREATE TABLE " + db + "." + table, created, cfg.deadline());
        } catch (TierproofException e) {
            throw refused(e);
        }
        TablePath path = TablePath.of(db, table);
        if (!cluster.startedForThisRun()) {
            // Created (CREATE TABLE refuses a name that exists): a failed run leaves nothing on a cluster not ours.
            steps.undo().created("Fluss table " + db + "." + table + " at " + cluster.bootstrapServers(),
                    () -> dropFlussTable(cluster, path));
        }
        Served served = served(cluster, path, cfg, steps);
        timings.put("create", Statements.millisSince(t));
        return new Created(db, table, path, served.id(), flussBatch, served.findings());
    }

    /**
     * Whether the new table is served: taken in by the coordinator (restarted when it missed it,
     * on a cluster tierproof runs) and, without partitions, a leader for every bucket.
     *
     * @return its id, and what that met that is a finding of its own
     */
    private static Served served(FlussCluster cluster, TablePath path, StreamhouseProof.Config cfg,
            Steps steps) {
        try (Connection connection = Clients.open(cluster.clientConfig())) {
            org.apache.fluss.metadata.TableInfo info = connection.getAdmin().getTableInfo(path)
                    .get(30, TimeUnit.SECONDS);
            List<String> findings = MissedTable.check(cluster, path, info.getTableId(), steps.progress()::step)
                    .stream().toList();
            BucketLeaders.await(connection, info, cfg.deadline());
            return new Served(info.getTableId(), findings);
        } catch (TierproofException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TierproofException("interrupted while checking that " + path + " is served", e);
        } catch (Exception e) {
            throw new TierproofException("could not read the leaders of " + path + ": " + Steps.rootMessage(e), e);
        }
    }

    /**
     * A CREATE TABLE that Fluss refused as invalid (its key, partitions or options) is bad input,
     * not a finding: nothing was created and nothing was read. Anything else stays what it was.
     */
    private static RuntimeException refused(TierproofException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException || t instanceof org.apache.fluss.exception.InvalidTableException
                    || t instanceof org.apache.fluss.exception.InvalidConfigException) {
                return new IllegalArgumentException("Fluss refuses the table: " + t.getMessage(), e);
            }
        }
        return e;
    }

    /**
     * Makes the Fluss database if it is missing; a run that does not complete drops it again when
     * it is still empty (never one it did not make, never with tables in it).
     */
    private static void createDatabaseIfMissing(FlussCluster cluster, String db, Steps steps) {
        try (Connection connection = Clients.open(cluster.clientConfig())) {
            var admin = connection.getAdmin();
            if (admin.databaseExists(db).get(30, TimeUnit.SECONDS)) {
                return;
            }
            steps.progress().step("creating Fluss database " + db);
            try {
                admin.createDatabase(db, org.apache.fluss.metadata.DatabaseDescriptor.EMPTY, false)
                        .get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof org.apache.fluss.exception.DatabaseAlreadyExistException) {
                    return; // made meanwhile by someone else: theirs, never dropped by this run
                }
                throw e;
            }
            // Made by this run (registered once made: a database someone else made meanwhile is never dropped).
            steps.undo().created("Fluss database " + db + " at " + cluster.bootstrapServers(),
                    () -> dropDatabaseIfEmpty(cluster, db));
        } catch (TierproofException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("could not create Fluss database " + db + ": " + Steps.rootMessage(e), e);
        }
    }

    private static void dropDatabaseIfEmpty(FlussCluster cluster, String db) throws Exception {
        try (Connection again = Clients.open(cluster.clientConfig())) {
            var a = again.getAdmin();
            if (a.listTables(db).get(30, TimeUnit.SECONDS).isEmpty()) {
                a.dropDatabase(db, true, false).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void dropFlussTable(FlussCluster cluster, TablePath path) throws Exception {
        try (Connection connection = Clients.open(cluster.clientConfig())) {
            connection.getAdmin().dropTable(path, true).get(30, TimeUnit.SECONDS);
        }
    }

    /** TIMESTAMP_LTZ values are written and read as UTC instants. */
    static TableEnvironment utc(TableEnvironment tables) {
        tables.getConfig().setLocalTimeZone(ZoneOffset.UTC);
        return tables;
    }

    /** Paimon's catalog of the warehouse in {@code tables}, in database {@code db}. */
    static TableEnvironment paimon(TableEnvironment tables, LakeLocation warehouse, String db) {
        PaimonTables.register(utc(tables), warehouse);
        tables.useDatabase(db);
        return tables;
    }
}
