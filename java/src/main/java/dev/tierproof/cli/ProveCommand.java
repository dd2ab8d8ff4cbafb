package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.GeneralWorkload;
import dev.tierproof.core.Rows;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.paimon.GeneralPaimonProof;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.report.GeneralReport;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tierproof prove}: the core proof on Flink SQL + Paimon. */
@Command(name = "prove", mixinStandardHelpOptions = true,
        description = "Flink SQL + Paimon: batch read = bounded streaming replay = last value per id.")
final class ProveCommand extends TierproofCommand {
    /** Up to this many upserts run as one INSERT each (the contract); more are batched. */
    static final int PER_UPSERT_LIMIT = 100;

    @Option(names = "--table", paramLabel = "NAME",
            description = "the table (table or db.table; default accounts, or the DDL's own name)")
    String table;

    @Mixin
    TableOptions tableOptions;

    @Option(names = "--rows-per-insert", paramLabel = "N",
            description = "upserts per INSERT statement, 1 to " + PaimonProof.MAX_ROWS_PER_INSERT
                    + " (default 1 up to " + PER_UPSERT_LIMIT + " upserts, else 1000)")
    Integer rowsPerInsert;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        // Every input is checked before anything starts.
        String ddl = tableOptions.ddl(table, GeneralWorkload.Target.PAIMON);
        if (ddl != null && !Ddl.isIdBal(ddl)) {
            return proveAnyTable(ddl);
        }
        Rows upserts = workload.load(WorkloadOptions.EXAMPLE_CSV);
        if (ddl != null) {
            Ddl.checkUserDdl(ddl, upserts.anyNullBal());
        } else if (table != null) {
            Ddl.tierTableDdl(table);
        }
        int perInsert = rowsPerInsert != null ? rowsPerInsert : upserts.size() <= PER_UPSERT_LIMIT ? 1 : 1000;
        String describe = workload.describe(upserts, upserts.size() + " upserts (the built-in example)");
        return onPaimon(perInsert, describe, (engine, warehouse, steps, report, deadline) -> {
            ProofReport result = PaimonProof.run(engine, new PaimonProof.Config(table, upserts, ddl, warehouse,
                    deadline, perInsert), steps);
            return () -> ReportOutput.print(main.out, main.err, result, report, "DDL");
        });
    }

    /** A proof on a Flink engine and a warehouse; what it returns prints its outcome. */
    private interface Proof {
        Outcome run(FlinkEngine engine, Path warehouse, Steps steps, OutputFile report, Duration deadline);
    }

    /** Prints a completed proof's outcome and returns the exit status. */
    private interface Outcome {
        int print();
    }

    /**
     * What both proofs share: the rest of the inputs checked up front, then one run (its own
     * directory, a MiniCluster, the warehouse), the proof, and its outcome.
     */
    private int onPaimon(int perInsert, String describe, Proof proof) {
        PaimonProof.checkRowsPerInsert(perInsert);
        List<Path> inputs = new ArrayList<>(workload.inputs());
        inputs.add(tableOptions.ddlFile);
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.warehouse);
        Duration deadline = run.deadline(60);
        try (RunSession session = RunSession.start("prove", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.println("tierproof prove: " + describe + ", warehouse " + warehouse.describe());
            session.steps().progress().step("starting Flink MiniCluster");
            FlinkEngine engine = session.started(FlinkEngine.start(4, session.directory().directory("flink")));
            Outcome outcome = proof.run(engine, warehouse.path(), session.steps(), report, deadline);
            session.completed();
            return outcome.print();
        }
    }

    /**
     * A table of another shape than {@code (id INT, bal INT)}: its workload is a CSV whose header
     * names its columns (and optionally {@code op}), proved by the general proof.
     */
    private int proveAnyTable(String ddl) {
        WorkloadOptions.Opened opened = workload.open(GeneralWorkload.Target.PAIMON, ddl, tableOptions.source());
        // The DDL and the whole workload were checked as the workload was opened, before anything starts.
        try (GeneralWorkload checked = opened.workload()) {
            int perInsert = rowsPerInsert != null ? rowsPerInsert : 1000;
            return onPaimon(perInsert, "the table of " + tableOptions.source() + ", " + opened.source(),
                    (engine, warehouse, steps, report, deadline) -> {
                        GeneralReport result = GeneralPaimonProof.run(engine, new GeneralPaimonProof.Config(table,
                                checked, warehouse, deadline, perInsert), steps);
                        return () -> ReportOutput.print(main.out, main.err, result, report, "DDL");
                    });
        }
    }
}
