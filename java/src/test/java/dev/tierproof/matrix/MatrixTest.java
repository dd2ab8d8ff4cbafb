package dev.tierproof.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import java.nio.charset.StandardCharsets;
import dev.tierproof.flink.FlinkEngine;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key cells of the matrix on real Paimon, with the expectations Paimon's docs state:
 * deduplicate + input keeps the promise in every read; an append-only table does not; an
 * aggregation table's input changelog streams the raw inputs, not the sums; first-row refuses
 * the input producer at CREATE.
 */
class MatrixTest {
    @TempDir
    Path warehouse;

    /** A seeded workload of the tiered table without deletes (every engine of the grid takes it). */
    static byte[] upsertsOnly(int n, int keys, long seed) {
        try (Workload w = Workload.generate(Workload.Target.PAIMON, Ddl.tierTableDdl("accounts"), n, keys, seed,
                false)) {
            return w.workloadCsv().getBytes(StandardCharsets.UTF_8);
        }
    }

    @Test
    void keyCells() {
        List<Cell> cells;
        try (FlinkEngine engine = FlinkEngine.start(4)) {
            cells = MatrixRun.run(engine, new MatrixRun.Config(Ddl.tierTableDdl("accounts"),
                    upsertsOnly(60, 6, 5),
                    List.of("deduplicate", "aggregation", "first-row", "append-only"), List.of("input", "none"),
                    warehouse, Duration.ofSeconds(60), 20), Steps.silent());
        }
        MatrixReport report = new MatrixReport(cells, "60 random upserts over 6 keys, seed 5", 0);
        for (String read : MatrixRun.READS) {
            assertEquals(Cell.CONSISTENT, report.cell("deduplicate", "input", read).verdict(), read);
            Cell append = report.cell("append-only", "none", read);
            assertEquals(Cell.INCONSISTENT, append.verdict(), read);
            assertEquals(0, append.missing());
            assertEquals(54, append.extra(), "60 writes over 6 ids: 54 superseded versions");
        }
        // The sums are in the table, but the input changelog streams each raw input.
        assertEquals(Cell.CONSISTENT, report.cell("aggregation", "input", "batch").verdict());
        Cell aggReplay = report.cell("aggregation", "input", "streaming-replay");
        assertEquals(Cell.INCONSISTENT, aggReplay.verdict());
        assertFalse(aggReplay.equalsBatch());
        // Without a changelog producer Paimon refuses to stream an aggregation table.
        Cell aggNone = report.cell("aggregation", "none", "streaming-replay");
        assertEquals(Cell.REFUSED, aggNone.verdict());
        assertTrue(aggNone.reason().contains("streaming reading is not supported"), aggNone.reason());
        Cell firstRowInput = report.cell("first-row", "input", "batch");
        assertEquals(Cell.REFUSED, firstRowInput.verdict());
        assertTrue(firstRowInput.reason().startsWith("at CREATE: Only support 'none' and 'lookup'"),
                firstRowInput.reason());
        assertEquals(Cell.CONSISTENT, report.cell("first-row", "none", "batch").verdict());

        JsonNode json = report.json();
        assertEquals(cells.size(), json.path("cells").size());
        assertEquals(24, cells.size());
        String md = report.markdown();
        assertTrue(md.contains("| deduplicate | input | ✅ consistent | ✅ consistent | ✅ consistent |"), md);
        String html = report.html();
        assertTrue(html.contains("<td class=\"inconsistent\""), html);
        assertFalse(html.contains("http://") || html.contains("https://") || html.contains("<script"),
                "self-contained: no network resources");
    }

    /** Any table's variants: a composite string key with deletes; a first-row table cannot take them. */
    @Test
    void aUsersTableAndAWorkloadSomeVariantsCannotTake() {
        String ddl = "CREATE TABLE ledger (region STRING, id BIGINT, amount DECIMAL(12, 2),"
                + " PRIMARY KEY (region, id) NOT ENFORCED) PARTITIONED BY (region) WITH ('bucket' = '2')";
        byte[] ops = ("op,region,id,amount\n,eu,1,1.50\n,us,1,2\n,eu,1,3.25\ndelete,us,1,\n,eu,2,0.01\n")
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        List<Cell> cells;
        try (FlinkEngine engine = FlinkEngine.start(4)) {
            cells = MatrixRun.run(engine, new MatrixRun.Config(ddl, ops, List.of("deduplicate", "first-row"),
                    List.of("lookup"), warehouse, Duration.ofSeconds(60), 2), Steps.silent());
        }
        MatrixReport report = new MatrixReport(cells, "5 operations", 0);
        for (String read : MatrixRun.READS) {
            Cell dedup = report.cell("deduplicate", "lookup", read);
            assertEquals(Cell.CONSISTENT, dedup.verdict(), read + ": " + dedup.reason());
            assertEquals(2, dedup.rows(), read);
            Cell firstRow = report.cell("first-row", "lookup", read);
            assertEquals(Cell.NOT_RUN, firstRow.verdict(), read);
            assertTrue(firstRow.reason().contains("operation 4 is a delete: a first-row table takes no deletes"),
                    firstRow.reason());
        }
        assertTrue(report.markdown().contains("- first-row + lookup: not-run: operation 4 is a delete"),
                report.markdown());
    }
}
