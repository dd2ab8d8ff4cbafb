package dev.tierproof.paimon;

import dev.tierproof.core.CheckedDdl;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.TablePaths;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.TierproofException;
import dev.tierproof.report.Report;
import dev.tierproof.flink.PlannerThread;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.catalog.ObjectPath;

/**
 * Creates the table a proof writes to, and never touches one it did not create: the DDL is the
 * generated tiered table or a user's {@code CREATE TABLE}, checked by the Rust core (nothing else
 * runs); a table that already exists is refused, {@code IF NOT EXISTS} or not; what is created is
 * recorded in the run's {@link dev.tierproof.run.Undo} so a failed run removes it; and a table
 * that fails the check after creation is dropped at once, so fixing the DDL and rerunning works.
 */
public final class TableCreation {
    /**
     * @param path the database and table created
     * @param keyed whether it has a primary key
     * @param ddl the statement that ran
     */
    public record Created(ObjectPath path, boolean keyed, String ddl) {
        /** A completed proof's report, opened with what every proof of this table says first. */
        public ObjectNode report(String command, Path warehouse) {
            ObjectNode report = Report.newObject();
            report.put("command", command);
            report.put("status", "completed");
            report.put("table", path.getFullName());
            Report.putPaimon(report, LakeLocation.local(warehouse).warehouse(), path.getDatabaseName(), path.getObjectName());
            report.put("ddl", ddl);
            report.put("keyed", keyed);
            return report;
        }
    }

    private TableCreation() {}

    /** Creates a table of any shape from a DDL the Rust core checked (see {@code Workload}). */
    public static Created createGeneral(Steps steps, TableEnvironment batch, Path warehouse, String requested,
            CheckedDdl checked, Duration deadline) {
        return create(steps, batch, warehouse, resolve(requested, checked), checked.sql(), checked.keyed(), deadline);
    }

    private static Created create(Steps steps, TableEnvironment batch, Path warehouse, ObjectPath path, String ddl,
            boolean keyed, Duration deadline) {
        String db = path.getDatabaseName();
        String where = " in the warehouse " + warehouse;
        if (PaimonLake.tableExists(warehouse, db, path.getObjectName())) {
            throw new IllegalArgumentException("table " + path.getFullName() + " already exists" + where
                    + "; tierproof never writes to a table it did not create: choose another --table or --warehouse");
        }
        if (!PaimonLake.databaseExists(warehouse, db)) {
            PaimonTables.createDatabaseIfMissing(batch, db);
            steps.undo().created("database " + db + where, () -> PaimonLake.dropDatabaseIfEmpty(warehouse, db));
        }
        batch.useDatabase(db);
        steps.progress().step("creating " + path.getFullName() + where);
        // Recorded before the statement runs: a CREATE that times out may still finish after the
        // run gave up on it. The table did not exist a moment ago, so one that exists at undo time
        // is this run's, unless the CREATE failed because another writer made it in between.
        boolean[] someoneElsesTable = {false};
        steps.undo().created("table " + path.getFullName() + where, () -> {
            if (!someoneElsesTable[0]) {
                PaimonLake.dropTable(warehouse, db, path.getObjectName());
            }
        });
        steps.execute("CREATE TABLE " + path.getFullName(), deadline, control -> {
            try {
                PlannerThread.executeSql(batch, ddl);
            } catch (RuntimeException e) {
                someoneElsesTable[0] = Steps.rootMessage(e).contains("already exists");
                throw new IllegalArgumentException("the DDL failed: " + Steps.rootMessage(e), e);
            }
        });
        if (!PaimonLake.tableExists(warehouse, db, path.getObjectName())) {
            throw new TierproofException("the DDL ran but table " + path.getFullName() + " is not" + where);
        }
        try {
            boolean created = PaimonTables.hasPrimaryKey(batch, path);
            if (created != keyed) {
                throw new IllegalArgumentException("table " + path.getFullName() + " was created "
                        + (created ? "with" : "without") + " a primary key, unlike its DDL");
            }
        } catch (RuntimeException e) {
            PaimonLake.dropTable(warehouse, db, path.getObjectName());
            throw e;
        }
        return new Created(path, keyed, ddl);
    }

    /** The DDL's own name wins; {@code --table} may give the database, and must not disagree. */
    private static ObjectPath resolve(String requested, CheckedDdl checked) {
        if (requested == null) {
            return new ObjectPath(checked.database() != null ? checked.database() : PaimonTables.DEFAULT_DATABASE,
                    checked.table());
        }
        ObjectPath asked = PaimonTables.objectPath(requested);
        boolean askedDatabase = TablePaths.pathParts(requested).length == 2;
        if (!asked.getObjectName().equals(checked.table())) {
            throw new IllegalArgumentException("--table " + requested + " names table " + asked.getObjectName()
                    + " but the DDL creates " + checked.table() + "; give the DDL's name or leave --table out");
        }
        if (askedDatabase && checked.database() != null && !asked.getDatabaseName().equals(checked.database())) {
            throw new IllegalArgumentException("--table " + requested + " names database " + asked.getDatabaseName()
                    + " but the DDL creates its table in " + checked.database());
        }
        return new ObjectPath(checked.database() != null ? checked.database() : asked.getDatabaseName(),
                checked.table());
    }
}
