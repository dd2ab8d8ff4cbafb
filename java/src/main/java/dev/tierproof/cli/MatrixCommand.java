package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.matrix.Cell;
import dev.tierproof.matrix.MatrixReport;
import dev.tierproof.matrix.MatrixRun;
import dev.tierproof.paimon.PaimonProof;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tierproof matrix}: every engine × producer × read mode on one workload. */
@Command(name = "matrix", mixinStandardHelpOptions = true,
        description = "Every merge engine x changelog producer x read mode on one workload.")
final class MatrixCommand extends TierproofCommand {
    static final String DEFAULT_WORKLOAD = "200 random upserts over 20 keys, seed 1";

    @Option(names = "--html", paramLabel = "FILE.html", description = "write the grid as a self-contained page")
    Path html;

    @Option(names = "--markdown", paramLabel = "FILE.md", description = "write the grid as a Markdown table")
    Path markdown;

    @Mixin
    TableOptions tableOptions;

    @Option(names = "--rows-per-insert", paramLabel = "N", defaultValue = "25",
            description = "upserts per INSERT (one commit each; default ${DEFAULT-VALUE})")
    int rowsPerInsert;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        String usersDdl = tableOptions.ddl(null, Workload.Target.PAIMON);
        String ddl = usersDdl != null ? usersDdl : Ddl.tierTableDdl("accounts");
        // The base table and its workload are checked here, before anything starts. The default
        // has no deletes: every engine of the grid (first-row too) takes it.
        WorkloadOptions.Opened opened = workload.open(Workload.Target.PAIMON, ddl,
                usersDdl != null ? tableOptions.source() : "the tiered table", null, null, usersDdl != null ? null
                        : (target, d) -> new WorkloadOptions.Opened(Workload.generate(target, d, 200, 20, 1,
                                false), DEFAULT_WORKLOAD));
        byte[] ops;
        try (Workload checked = opened.workload()) {
            ops = checked.workloadCsv().getBytes(StandardCharsets.UTF_8);
        }
        String describe = (usersDdl != null ? "the variants of " + tableOptions.source() + ", " : "")
                + opened.source();
        PaimonProof.checkRowsPerInsert(rowsPerInsert);
        List<Path> inputs = new ArrayList<>(workload.inputs());
        if (tableOptions.ddlFile != null) {
            inputs.add(tableOptions.ddlFile);
        }
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        OutputFile page = OutputFile.check("--html", html, inputs);
        OutputFile table = OutputFile.check("--markdown", markdown, inputs);
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.warehouse);
        var deadline = run.deadline(60);

        try (RunSession session = RunSession.start("matrix", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.println("tierproof matrix: " + describe + ", " + rowsPerInsert + " upserts per commit");
            long start = System.nanoTime();
            FlinkEngine engine = session.started(FlinkEngine.start(4, session.directory().directory("flink")));
            List<Cell> cells = MatrixRun.run(engine, new MatrixRun.Config(ddl, ops, MatrixRun.ENGINES,
                    MatrixRun.PRODUCERS, warehouse.path(), deadline, rowsPerInsert), session.steps());
            session.completed();
            MatrixReport result = new MatrixReport(cells, describe, (System.nanoTime() - start) / 1_000_000);
            main.out.print(result.markdown());
            main.out.printf("time: %d ms%n", (System.nanoTime() - start) / 1_000_000);
            write(report, result.json().toPrettyString() + "\n");
            write(page, result.html());
            write(table, result.markdown());
            return Main.CONSISTENT;
        }
    }

    private void write(OutputFile file, String text) {
        if (file != null && file.write(text, main.err)) {
            main.out.println(file.path());
        }
    }
}
