package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.matrix.Cell;
import dev.tierproof.matrix.MatrixReport;
import dev.tierproof.matrix.MatrixRun;
import dev.tierproof.matrix.StreamhouseMatrix;
import dev.tierproof.matrix.StreamhouseMatrixReport;
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
        description = "Every merge engine x changelog producer x read mode on one workload; with --streamhouse,"
                + " every Fluss table shape of a grid, tiered and read every way.")
final class MatrixCommand extends TierproofCommand {
    static final String DEFAULT_WORKLOAD = "200 random upserts over 20 keys, seed 1";

    @Option(names = "--html", paramLabel = "FILE.html", description = "write the grid as a self-contained page")
    Path html;

    @Option(names = "--markdown", paramLabel = "FILE.md", description = "write the grid as a Markdown table")
    Path markdown;

    @Mixin
    TableOptions tableOptions;

    @Option(names = "--streamhouse", description = "the streamhouse matrix instead: Fluss table shapes (--kinds x"
            + " --buckets x --partitions x --lake-options) on one Fluss cluster with its lake tiering, each with a"
            + " random workload with deletes written in --rounds, every read and every consistent cut judged")
    boolean streamhouse;

    @Option(names = "--kinds", paramLabel = "LIST", split = ",", defaultValue = "pk,first-row,log",
            description = "with --streamhouse: pk, first-row, log (default ${DEFAULT-VALUE})")
    List<String> kinds;

    @Option(names = "--buckets", paramLabel = "LIST", split = ",", defaultValue = "1,3",
            description = "with --streamhouse: bucket counts (default ${DEFAULT-VALUE})")
    List<Integer> buckets;

    @Option(names = "--partitions", paramLabel = "LIST", split = ",", defaultValue = "none,STRING,INT,DATE",
            description = "with --streamhouse: partition column types: none, STRING, INT, BIGINT, DATE (default"
                    + " ${DEFAULT-VALUE})")
    List<String> partitions;

    @Option(names = "--lake-options", paramLabel = "LIST", split = ",", defaultValue = "none",
            description = "with --streamhouse: none, or table options passed through to the lake,"
                    + " e.g. paimon.deletion-vectors.enabled=true (default ${DEFAULT-VALUE})")
    List<String> lakeOptions;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "2",
            description = "with --streamhouse: rounds of writes per shape (default ${DEFAULT-VALUE})")
    int rounds;

    @Option(names = "--rows-per-insert", paramLabel = "N", defaultValue = "25",
            description = "upserts per INSERT (one commit each; default ${DEFAULT-VALUE})")
    int rowsPerInsert;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    RunOptions run;

    @Override
    public Integer call() {
        if (streamhouse) {
            return streamhouseMatrix();
        }
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
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.localWarehouse("matrix"));
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

    /** {@code matrix --streamhouse}: the grid of Fluss table shapes, each proved on one cluster. */
    private int streamhouseMatrix() {
        if (tableOptions.given() || workload.upserts != null) {
            throw new IllegalArgumentException("--streamhouse makes its own tables and random workloads: give the"
                    + " grid (--kinds, --buckets, --partitions, --lake-options) and --random N --keys K --seed S");
        }
        int operations = workload.random != null ? workload.random : 120;
        int keys = workload.keys != null ? workload.keys : 12;
        long seed = workload.seed != null ? workload.seed : 1;
        if (operations < 1 || operations > 1_000_000 || keys < 1) {
            throw new IllegalArgumentException("--random " + operations + " must be between 1 and 1000000, --keys "
                    + keys + " at least 1");
        }
        if (rounds < 1 || rounds > operations) {
            throw new IllegalArgumentException("--rounds " + rounds + " must be between 1 and " + operations);
        }
        List<StreamhouseMatrix.Shape> shapes = StreamhouseMatrix.grid(kinds, buckets, partitions, lakeOptions);
        var deadline = run.deadline(60);
        StreamhouseMatrix.Config cfg = new StreamhouseMatrix.Config(shapes, operations, keys, seed, rounds, null,
                deadline);
        StreamhouseMatrix.check(cfg);
        List<Path> inputs = new ArrayList<>();
        OutputFile report = OutputFile.check("--report", run.report, inputs);
        OutputFile page = OutputFile.check("--html", html, inputs);
        OutputFile table = OutputFile.check("--markdown", markdown, inputs);
        Warehouse.Checked usersWarehouse = Warehouse.checkUsers(run.localWarehouse("matrix"));
        String describe = shapes.size() + " Fluss table shapes, each " + operations + " random operations over "
                + keys + " keys (seed " + seed + ") in " + rounds + " rounds";
        try (RunSession session = RunSession.start("matrix", main.runDirectory, run, report, main.err)) {
            main.running(session);
            Warehouse warehouse = Warehouse.of(usersWarehouse, session);
            main.out.println("tierproof matrix --streamhouse: " + describe + ", Paimon warehouse "
                    + warehouse.describe());
            long start = System.nanoTime();
            Streamhouse servers = Streamhouse.start(session, warehouse.lake());
            List<StreamhouseMatrix.Row> rows = StreamhouseMatrix.run(servers.cluster(), servers.engine(),
                    new StreamhouseMatrix.Config(
                    shapes, operations, keys, seed, rounds, warehouse.path(), deadline), session.steps());
            session.completed();
            StreamhouseMatrixReport result = new StreamhouseMatrixReport(rows, describe,
                    (System.nanoTime() - start) / 1_000_000);
            main.out.print(result.markdown());
            main.out.printf("time: %d ms%n", (System.nanoTime() - start) / 1_000_000);
            write(report, result.json().toPrettyString() + "\n");
            write(page, result.html());
            write(table, result.markdown());
            return result.consistent() ? Main.CONSISTENT : Main.INCONSISTENT;
        }
    }

    private void write(OutputFile file, String text) {
        if (file != null && file.write(text, main.err)) {
            main.out.println(file.path());
        }
    }
}
