package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.cli.MainTest.Outcome;
import dev.tierproof.support.PyPaimon;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --ddl-file} runs one checked CREATE TABLE and never touches data it did not create. */
class DdlFileSafetyTest {
    @TempDir
    Path dir;

    Path file(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    /** A table of the user's, made by a first run that keeps it. */
    Path warehouseWithTableKeep() {
        Path wh = dir.resolve("wh");
        Outcome o = run("prove", "--table", "keep", "--warehouse", wh.toString());
        assertEquals(Main.CONSISTENT, o.status(), o.out() + o.err());
        return wh;
    }

    @Test
    void aDdlFileThatDropsATableIsRefusedAndTheTableStays() throws Exception {
        Path wh = warehouseWithTableKeep();
        Outcome o = run("prove", "--ddl-file", file("drop.sql", "DROP TABLE keep").toString(), "--warehouse",
                wh.toString());
        assertEquals(Main.FAILED, o.status());
        assertTrue(o.err().contains("the DDL is refused: it is a DROP TABLE statement"), o.err());
        // Refused before anything started, and the table holds what it held.
        assertFalse(o.err().contains("starting Flink"), o.err());
        assertEquals("[[1,175],[2,250],[3,-50],[4,410],[5,null]]",
                PyPaimon.read(wh, "default.keep").path("rows").toString());
    }

    @Test
    void everyOtherKindOfStatementIsRefusedByName() throws Exception {
        Map<String, String> kinds = Map.of(
                "ALTER TABLE keep RENAME TO gone", "ALTER TABLE",
                "INSERT INTO keep VALUES (1, 1)", "INSERT",
                "CREATE CATALOG c WITH ('type' = 'paimon')", "CREATE CATALOG",
                "USE other", "USE",
                "SET 'table.dml-sync' = 'true'", "SET");
        for (Map.Entry<String, String> k : kinds.entrySet()) {
            Outcome o = run("prove", "--ddl-file", file("k.sql", k.getKey()).toString());
            assertEquals(Main.FAILED, o.status(), k.getKey());
            assertTrue(o.err().contains("it is a " + k.getValue() + " statement"), o.err());
        }
        Outcome ctas = run("prove", "--ddl-file", file("ctas.sql", "CREATE TABLE t AS SELECT * FROM keep").toString());
        assertTrue(ctas.err().contains("CREATE TABLE … AS / LIKE is refused"), ctas.err());
        Outcome two = run("prove", "--ddl-file",
                file("two.sql", "CREATE TABLE t (id INT, bal INT); DROP TABLE keep;").toString());
        assertTrue(two.err().contains("it holds 2 statements (CREATE TABLE, DROP TABLE)"), two.err());
    }

    @Test
    void ifNotExistsOnATableThatExistsIsRefused() throws Exception {
        Path wh = warehouseWithTableKeep();
        Outcome o = run("prove", "--ddl-file", file("ine.sql",
                "CREATE TABLE IF NOT EXISTS keep (id INT, bal INT, PRIMARY KEY (id) NOT ENFORCED)").toString(),
                "--warehouse", wh.toString());
        assertEquals(Main.FAILED, o.status());
        assertTrue(o.err().contains("table default.keep already exists"), o.err());
        assertEquals(5, PyPaimon.read(wh, "default.keep").path("rows").size());
    }

    @Test
    void theShapeIsCheckedBeforeAnythingIsCreated() throws Exception {
        Path wh = dir.resolve("wh2");
        // Another shape is proved by the general proof, from a CSV naming its columns: without
        // one it is refused, before anything is created.
        Outcome o = run("prove", "--warehouse", wh.toString(), "--ddl-file",
                file("extra.sql", "CREATE TABLE t (id INT, bal INT, note STRING)").toString());
        assertEquals(Main.FAILED, o.status());
        assertTrue(o.err().contains("is not the (id INT, bal INT) table: give its workload as --upserts"), o.err());
        assertFalse(Files.exists(wh.resolve("default.db")), "nothing was created");
        Outcome badCsv = run("prove", "--warehouse", wh.toString(), "--ddl-file", file("extra.sql",
                "CREATE TABLE t (id INT, bal INT, note STRING)").toString(), "--upserts", file("u.csv",
                "id,bal\n1,2\n").toString());
        assertTrue(badCsv.err().contains("the header lacks column \"note\""), badCsv.err());
        assertFalse(Files.exists(wh.resolve("default.db")), "nothing was created");
        Outcome elsewhere = run("prove", "--warehouse", wh.toString(), "--ddl-file", file("dir.sql",
                "CREATE TABLE t (id INT, bal INT) WITH ('data-file.path-directory' = '../../outside')").toString());
        assertTrue(elsewhere.err().contains("option \"data-file.path-directory\" names a location"), elsewhere.err());
        assertFalse(Files.exists(wh.resolve("default.db")), "nothing was created");
        Outcome nn = run("prove", "--ddl-file", file("nn.sql", "CREATE TABLE t (id INT, bal INT NOT NULL)").toString());
        // The example writes a NULL bal: the workload is refused naming its line, before anything starts.
        assertTrue(nn.err().contains("the default workload: CSV line 6: column bal is NOT NULL but empty"), nn.err());
    }

    /**
     * A DDL that Paimon accepts but that fails once the run writes: the table this run created is
     * dropped (and its database), so the same name works once the DDL is fixed.
     */
    @Test
    void aTableThatFailsAfterCreationIsDroppedSoAFixedDdlCanRerun() throws Exception {
        Path wh = dir.resolve("wh3");
        Outcome bad = run("prove", "--warehouse", wh.toString(), "--ddl-file", file("bad.sql",
                "CREATE TABLE ledger.t (id INT, bal INT, PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('file.compression' = 'no-such-codec')").toString());
        assertEquals(Main.FAILED, bad.status(), bad.out() + bad.err());
        assertTrue(bad.err().contains("removed table ledger.t"), bad.err());
        assertFalse(Files.exists(wh.resolve("ledger.db/t")), "the failed run's table is gone");
        assertFalse(Files.exists(wh.resolve("ledger.db")), "and so is the database it created");
        Outcome fixed = run("prove", "--warehouse", wh.toString(), "--ddl-file", file("good.sql",
                "CREATE TABLE ledger.t (id INT, bal INT, PRIMARY KEY (id) NOT ENFORCED)").toString());
        assertEquals(Main.CONSISTENT, fixed.status(), fixed.out() + fixed.err());
    }

    @Test
    void theDdlNamesTheTableAndProgressSaysSo() throws Exception {
        Outcome o = run("prove", "--ddl-file", file("p.sql", "CREATE TABLE plain (id INT, bal INT)").toString());
        // An append table holds every row written: its own promise.
        assertEquals(Main.CONSISTENT, o.status(), o.out() + o.err());
        assertTrue(o.err().contains("creating default.plain"), o.err());
        Outcome clash = run("prove", "--table", "other", "--ddl-file", file("p.sql", "CREATE TABLE plain (id INT, bal INT)").toString());
        assertTrue(clash.err().contains("--table other names table other but the DDL creates plain"), clash.err());
    }
}
