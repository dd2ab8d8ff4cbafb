package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tierproof.cli.MainTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A name can never put a table outside the warehouse, on any command. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class NameSafetyTest {
    @TempDir
    Path dir;

    @Test
    void aPathInATableNameIsRefusedBeforeAnythingIsWritten() {
        Path outside = dir.resolve("x.t");
        Outcome abs = run("prove", "--table", outside.toString(), "--warehouse", dir.resolve("wh").toString());
        assertEquals(Main.FAILED, abs.status());
        assertTrue(abs.err().contains("'/' is not allowed in a name"), abs.err());
        assertFalse(Files.exists(outside), "nothing outside the warehouse");
        for (String name : new String[] {"sub/dir", "a\\b", "file:x", "a%2F..%2Fb", "t$snapshots", "`..`", "`.x`",
            "db.`a..b`"}) {
            Outcome o = run("prove", "--table", name, "--warehouse", dir.resolve("wh").toString());
            assertEquals(Main.FAILED, o.status(), name);
            assertTrue(o.err().contains("bad input: invalid name"), name + ": " + o.err());
        }
        assertFalse(Files.exists(dir.resolve("wh/default.db/sub")));
        assertFalse(Files.exists(dir.resolve("wh/sub")));
    }

    @Test
    void everyFaceRefusesTheSameNames() {
        assertEquals(Main.FAILED, run("ddl", "--table", "/tmp/x").status());
        Outcome matrixLike = run("search", "--trials", "1", "--ddl-file", dir.resolve("none.sql").toString());
        assertTrue(matrixLike.err().contains("no such file or directory"), matrixLike.err());
        long start = System.nanoTime();
        Outcome sh = run("streamhouse", "--table", "a b");
        assertEquals(Main.FAILED, sh.status());
        assertTrue(sh.err().contains("Fluss names hold only ASCII letters"), sh.err());
        assertFalse(sh.err().contains("starting Fluss"), "refused before any cluster starts: " + sh.err());
        assertTrue((System.nanoTime() - start) / 1e9 < 10);
    }

    @Test
    void namesTooLongForTheFileSystemAreRefused() {
        Outcome db = run("prove", "--table", "d".repeat(253) + ".t");
        assertTrue(db.err().contains("at most 252 are allowed"), db.err());
        Outcome table = run("prove", "--table", "t".repeat(256));
        assertTrue(table.err().contains("256 bytes long; at most 255"), table.err());
    }
}
