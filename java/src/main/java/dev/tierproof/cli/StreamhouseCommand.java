package dev.tierproof.cli;

import dev.tierproof.core.GeneralWorkload;
import dev.tierproof.core.Rows;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.GeneralStreamhouseProof;
import dev.tierproof.fluss.LocalFlussCluster;
import dev.tierproof.fluss.StreamhouseProof;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.report.GeneralReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code tierproof streamhouse}: a real Fluss cluster tiering into Paimon, every read compared.
 * Whatever happens (a failure, Ctrl-C), the tiering job, the Flink MiniCluster and the Fluss
 * cluster are stopped and the run's directory is removed.
 */
@Command(name = "streamhouse", mixinStandardHelpOptions = true,
        description = "A real Fluss cluster tiering into Paimon; every read compared with the last value per id.")
final class StreamhouseCommand extends TierproofCommand {
    /** Up to this many upserts run as one INSERT each (each is a Flink job of about 2.5 s). */
    static final int PER_UPSERT_LIMIT = 20;

    @Option(names = "--table", paramLabel = "NAME",
            description = "the table, in Fluss and Paimon database fluss (ASCII letters, digits, _ and -;"
                    + " default accounts; with --ddl-file, the DDL's own name)")
    String table;

    @Mixin
    TableOptions tableOptions;

    @Option(names = "--rows-per-insert", paramLabel = "N",
            description = "upserts per INSERT statement, 1 to " + PaimonProof.MAX_ROWS_PER_INSERT
                    + " (default 1 up to " + PER_UPSERT_LIMIT + " upserts, else 2000)")
    Integer rowsPerInsert;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        if (tableOptions.given()) {
            return proveAnyTable();
        }
        Rows upserts = workload.load(WorkloadOptions.EXAMPLE_CSV);
        String table = this.table != null ? this.table : "accounts";
        // The (id INT, bal INT) table and its upserts go through the same pipeline as any table.
        String ddl = StreamhouseProof.ddl(table); // a name Fluss refuses is refused before any cluster starts
        int perInsert = rowsPerInsert != null ? rowsPerInsert : upserts.size() <= PER_UPSERT_LIMIT ? 1 : 2000;
        try (GeneralWorkload checked = GeneralWorkload.open(GeneralWorkload.Target.FLUSS, ddl, upserts.csv())) {
            return onTable(checked, perInsert, workload.describe(upserts, upserts.size()
                    + " upserts (the built-in example)"), workload.inputs());
        }
    }

    /**
     * Every input checked, then one run of the streamhouse proof of {@code checked}: its own
     * directory, a Fluss cluster with a Paimon lake, a MiniCluster; whatever happens (a failure,
     * Ctrl-C), the tiering job, Flink and the cluster are stopped and the run's directory removed.
     */
    private int onTable(GeneralWorkload checked, int perInsert, String describe, List<Path> inputs) {
        PaimonProof.checkRowsPerInsert(perInsert);
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.warehouse);
        Duration deadline = run.deadline(120);
        try (RunSession session = RunSession.start("streamhouse", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.println("tierproof streamhouse: " + describe + ", Paimon warehouse " + warehouse.describe());
            var progress = session.steps().progress();
            progress.step("starting Fluss (ZooKeeper, coordinator, tablet server) with a Paimon datalake");
            LocalFlussCluster cluster = session.started(LocalFlussCluster.start(1,
                    Tiering.clusterOptions(warehouse.path()), session.directory().directory("fluss")));
            progress.step("Fluss is up at " + cluster.bootstrapServers() + "; starting Flink MiniCluster");
            FlinkEngine engine = session.started(FlinkEngine.start(8, session.directory().directory("flink")));
            GeneralReport result = GeneralStreamhouseProof.run(cluster, engine,
                    new GeneralStreamhouseProof.Config(checked, warehouse.path(), deadline, perInsert),
                    session.steps());
            session.completed();
            progress.step("stopping Flink and the Fluss cluster");
            return ReportOutput.print(main.out, main.err, result, report, "DDL (Fluss)");
        }
    }

    /** A Fluss table of any shape, from {@code --ddl-file}, proved by the general streamhouse proof. */
    private int proveAnyTable() {
        String ddl = tableOptions.ddl(table, GeneralWorkload.Target.FLUSS);
        WorkloadOptions.Opened opened = workload.open(GeneralWorkload.Target.FLUSS, ddl, tableOptions.source());
        try (GeneralWorkload checked = opened.workload()) {
            String name = GeneralStreamhouseProof.tableName(checked.table());
            if (table != null && !table.equals(name)) {
                throw new IllegalArgumentException("--table " + table + " but the DDL creates " + name
                        + "; leave --table out");
            }
            int perInsert = rowsPerInsert != null ? rowsPerInsert : 1000;
            List<Path> inputs = new ArrayList<>(workload.inputs());
            inputs.add(tableOptions.ddlFile);
            return onTable(checked, perInsert, "the Fluss table of " + tableOptions.source() + ", "
                    + opened.source(), inputs);
        }
    }
}
