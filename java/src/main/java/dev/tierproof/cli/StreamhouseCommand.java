package dev.tierproof.cli;

import dev.tierproof.core.Rows;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.fluss.LocalFlussCluster;
import dev.tierproof.fluss.StreamhouseProof;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.report.ProofReport;
import java.nio.file.Path;
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

    @Option(names = "--table", paramLabel = "NAME", defaultValue = "accounts",
            description = "the table, in Fluss and Paimon database fluss (ASCII letters, digits, _ and -;"
                    + " default ${DEFAULT-VALUE})")
    String table;

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
        Rows upserts = workload.load(WorkloadOptions.EXAMPLE_CSV);
        StreamhouseProof.ddl(table); // a name Fluss refuses is refused before any cluster starts
        int perInsert = rowsPerInsert != null ? rowsPerInsert : upserts.size() <= PER_UPSERT_LIMIT ? 1 : 2000;
        PaimonProof.checkRowsPerInsert(perInsert);
        OutputFile report = OutputFile.check("--report", run.report, workload.inputs());
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.warehouse);
        var deadline = run.deadline(120);

        try (RunSession session = RunSession.start("streamhouse", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.println("tierproof streamhouse: " + workload.describe(upserts, upserts.size()
                    + " upserts (the built-in example)") + ", Paimon warehouse " + warehouse.describe());
            var progress = session.steps().progress();
            progress.step("starting Fluss (ZooKeeper, coordinator, tablet server) with a Paimon datalake");
            LocalFlussCluster cluster = session.started(LocalFlussCluster.start(1,
                    Tiering.clusterOptions(warehouse.path()), session.directory().directory("fluss")));
            progress.step("Fluss is up at " + cluster.bootstrapServers() + "; starting Flink MiniCluster");
            FlinkEngine engine = session.started(FlinkEngine.start(8, session.directory().directory("flink")));
            ProofReport result = StreamhouseProof.run(cluster, engine,
                    new StreamhouseProof.Config(table, upserts, warehouse.path(), deadline, perInsert),
                    session.steps());
            session.completed();
            progress.step("stopping Flink and the Fluss cluster");
            return ReportOutput.print(main.out, main.err, result, report, "DDL (Fluss)");
        }
    }
}
