package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.paimon.PaimonProof;
import dev.tierproof.report.ProofReport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tierproof prove}: the proof on Flink SQL + Paimon, of the tiered table or any table. */
@Command(name = "prove", mixinStandardHelpOptions = true,
        description = "Flink SQL + Paimon: batch read = bounded streaming replays = what the table's merge engine"
                + " makes of the workload (the last value per key, for the tiered table).")
final class ProveCommand extends TierproofCommand {
    /** Up to this many operations run as one statement each (the contract); more are batched. */
    static final int PER_UPSERT_LIMIT = 100;

    @Option(names = "--table", paramLabel = "NAME",
            description = "the table (table or db.table; default accounts, or the DDL's own name)")
    String table;

    @Mixin
    TableOptions tableOptions;

    @Option(names = "--rows-per-insert", paramLabel = "N",
            description = "upserts per INSERT statement, 1 to " + PaimonProof.MAX_ROWS_PER_INSERT
                    + " (default 1 up to " + PER_UPSERT_LIMIT + " operations, else 1000)")
    Integer rowsPerInsert;

    @Option(names = "--judge-as", paramLabel = "FILE", description = "judge the reads by what this table (the"
            + " same columns) would hold, e.g. an append table by its keyed twin (as search --judge-as does)")
    Path judgeAs;

    @Option(names = "--writer", paramLabel = "HOW", description = "statements (INSERT … VALUES, each a Flink job"
            + " and a commit) or job (every operation in order through one Flink job, one commit); default"
            + " statements up to " + PER_UPSERT_LIMIT + " operations or with --rows-per-insert, else job")
    String writer;

    @Mixin
    WorkloadOptions workload;

    @Option(names = "--replay", paramLabel = "DIR", description = "run a reproducer that search wrote again: its"
            + " table, workload and the table it was judged as")
    Path replay;

    @Mixin
    RunOptions run;

    /** The writer asked for, or the default for the workload. */
    private PaimonProof.Writer writer(Workload checked) {
        if (writer == null) {
            return checked.operations() <= PER_UPSERT_LIMIT || rowsPerInsert != null
                    || checked.orderedWriteRefused() != null ? PaimonProof.Writer.STATEMENTS : PaimonProof.Writer.JOB;
        }
        PaimonProof.Writer w = switch (writer) {
            case "statements" -> PaimonProof.Writer.STATEMENTS;
            case "job" -> PaimonProof.Writer.JOB;
            default -> throw new IllegalArgumentException("--writer " + writer + " is not statements or job");
        };
        if (w == PaimonProof.Writer.JOB && checked.orderedWriteRefused() != null) {
            throw new IllegalArgumentException("--writer job: " + checked.orderedWriteRefused());
        }
        if (w == PaimonProof.Writer.JOB && rowsPerInsert != null) {
            throw new IllegalArgumentException("--rows-per-insert " + rowsPerInsert + " sizes statements: give it with"
                    + " --writer statements, not --writer job");
        }
        return w;
    }

    @Override
    public Integer call() {
        if (replay != null) {
            Replay r = Replay.read(replay).checkFor("prove");
            if (judgeAs != null) {
                throw new IllegalArgumentException("--replay DIR names the table it was judged as: give no --judge-as"
                        + " with it");
            }
            r.applyTo(tableOptions, workload);
            judgeAs = r.judgeAs();
        }
        // Every input is checked before anything starts: the DDL and the whole workload as it opens.
        String usersDdl = tableOptions.ddl(table, Workload.Target.PAIMON);
        String ddl = usersDdl != null ? usersDdl : Ddl.tierTableDdl(table != null ? table : "accounts");
        String source = usersDdl != null ? tableOptions.source() : "the tiered table";
        String promise = judgeAs == null ? null : InputFiles.readText(judgeAs, "--judge-as");
        WorkloadOptions.Opened opened = workload.open(Workload.Target.PAIMON, ddl, source, promise,
                "--judge-as " + judgeAs, Ddl.isIdBal(ddl) ? WorkloadOptions::example : null);
        try (Workload checked = opened.workload()) {
            int perInsert = rowsPerInsert != null ? rowsPerInsert
                    : checked.operations() <= PER_UPSERT_LIMIT ? 1 : 1000;
            PaimonProof.checkRowsPerInsert(perInsert);
            PaimonProof.Writer how = writer(checked);
            List<Path> inputs = new ArrayList<>(workload.inputs());
            inputs.add(tableOptions.ddlFile);
            inputs.add(judgeAs);
            OutputFile report = OutputFile.check("--report", run.report, inputs);
            Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.localWarehouse("prove"));
            Duration deadline = run.deadline(60);
            try (RunSession session = RunSession.start("prove", main.runDirectory, run, report, main.err)) {
                main.running(session);
                Warehouse warehouse = Warehouse.of(usersWarehouse, session);
                main.out.println("tierproof prove: " + (usersDdl != null ? "the table of " + source + ", " : "")
                        + opened.source() + ", warehouse " + warehouse.describe());
                session.steps().progress().step("starting Flink MiniCluster");
                FlinkEngine engine = session.started(FlinkEngine.start(4, session.directory().directory("flink")));
                // The tiered table's DDL carries --table's name; a user's DDL names its own table.
                ProofReport result = PaimonProof.run(engine, new PaimonProof.Config(
                        usersDdl != null ? table : null, checked, warehouse.path(), deadline, perInsert, how),
                        session.steps());
                session.completed();
                return ReportOutput.print(main.out, main.err, result, report, "DDL");
            }
        }
    }
}
