package dev.tierproof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line: exit status, the human summary, the JSON report, and bad input. */
class MainTest {
    @TempDir
    Path dir;

    record Outcome(int status, String out, String err) {}

    static Outcome run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Main.run(List.of(args), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Outcome(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code body} with the system property {@code key} set to {@code value}, then as it was. */
    static void withProperty(String key, String value, Runnable body) {
        String was = System.getProperty(key);
        System.setProperty(key, value);
        try {
            body.run();
        } finally {
            if (was == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, was);
            }
        }
    }

    @Test
    void proveFromCsvWritesAReportAndKeepsTheWarehouse() throws Exception {
        Path csv = dir.resolve("ups.csv");
        Files.writeString(csv, "id,bal\n-1,5\n-1,\n2147483647,-2147483648\n7,1\n7,2\n");
        Path report = dir.resolve("out/report.json");
        Path warehouse = dir.resolve("wh");
        Outcome o = run("prove", "--upserts", csv.toString(), "--table", "from_csv", "--warehouse",
                warehouse.toString(), "--report", report.toString());
        assertEquals(Main.CONSISTENT, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("verdict          : CONSISTENT"), o.out());
        assertTrue(o.err().contains("read streaming: SELECT"), o.err());
        JsonNode j = new ObjectMapper().readTree(report.toFile());
        // Cells are canonical text, rows in the order of that text.
        assertEquals("[[\"-1\",null],[\"2147483647\",\"-2147483648\"],[\"7\",\"2\"]]",
                j.path("verdict").path("expected_rows").toString());
        assertTrue(j.path("consistent").asBoolean());
        assertTrue(Files.isDirectory(warehouse.resolve("default.db/from_csv")));
    }

    @Test
    void anAppendOnlyDdlFileJudgedByTheKeyedPromiseExitsOneWithTheDiff() throws Exception {
        Path ddl = dir.resolve("t.sql");
        Files.writeString(ddl, "CREATE TABLE plain (id INT, bal INT)");
        Path keyed = dir.resolve("keyed.sql");
        Files.writeString(keyed, "CREATE TABLE plain (id INT, bal INT, PRIMARY KEY (id) NOT ENFORCED)");
        // Judged by its own promise (every row written), the append table is consistent.
        Outcome own = run("prove", "--ddl-file", ddl.toString(), "--random", "12", "--keys", "3");
        assertEquals(Main.CONSISTENT, own.status(), own.out() + own.err());
        Outcome o = run("prove", "--ddl-file", ddl.toString(), "--table", "plain", "--judge-as", keyed.toString(),
                "--random", "30", "--keys", "3");
        assertEquals(Main.INCONSISTENT, o.status(), o.out() + o.err());
        assertTrue(o.out().contains("batch vs expected differ: missing none, extra"), o.out());
        assertTrue(o.out().contains("verdict          : INCONSISTENT"), o.out());
    }

    @Test
    void badInputExitsTwoNamingTheCause() throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "id,bal\n1,1\n2,99999999999\n");
        Outcome o = run("prove", "--upserts", csv.toString());
        assertEquals(Main.FAILED, o.status());
        assertTrue(o.err().contains(csv + ": CSV line 3: column bal: INT value \"99999999999\": outside"
                + " [-2147483648, 2147483647]"), o.err());
        assertEquals(Main.FAILED, run("prove", "--table", "").status());
        Outcome ten = run("prove", "--random", "ten");
        assertEquals(Main.FAILED, ten.status());
        assertTrue(ten.err().contains("'ten' is not an int"), ten.err());
        Outcome bogus = run("prove", "--bogus", "1");
        assertTrue(bogus.err().contains("Unknown options: '--bogus', '1'"), bogus.err());
        assertTrue(run("frobnicate").err().contains("Unmatched argument at index 0: 'frobnicate'"));
        Outcome missing = run("prove", "--upserts", dir.resolve("missing.csv").toString());
        assertEquals(Main.FAILED, missing.status());
        assertTrue(missing.err().contains("missing.csv: no such file or directory"), missing.err());
        // An object store warehouse is for streamhouse and audit; the Paimon-only commands say so.
        Outcome s3 = run("prove", "--warehouse", "s3://bucket1/wh");
        assertEquals(Main.FAILED, s3.status());
        assertTrue(s3.err().contains("--warehouse s3://bucket1/wh: prove keeps its tables in a local directory"),
                s3.err());
        // Without credentials (none in --conf, none in this environment): refused before anything runs. With
        // AWS_* keys set, the run would reach for a real bucket of someone else's: not tried.
        if (System.getenv("AWS_ACCESS_KEY_ID") == null && System.getenv("AWS_SECRET_ACCESS_KEY") == null) {
            Outcome noKeys = run("streamhouse", "--warehouse", "s3://bucket1/wh", "--random", "5");
            assertEquals(Main.FAILED, noKeys.status());
            assertTrue(noKeys.err().contains("--warehouse s3://bucket1/wh needs credentials")
                    && !noKeys.err().contains("starting Fluss"), noKeys.err());
        }
        Outcome badDb = run("streamhouse", "--database", "a/b", "--random", "5");
        assertEquals(Main.FAILED, badDb.status());
        assertTrue(badDb.err().contains("--database a/b: ") && !badDb.err().contains("starting Fluss"), badDb.err());
    }

    @Test
    void ddlCommandPrintsTheTieredTable() {
        Outcome o = run("ddl", "--table", "t");
        assertEquals(0, o.status());
        assertTrue(o.out().startsWith("CREATE TABLE `t` ("), o.out());
    }
}
