package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.cli.MainTest.Outcome;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.report.ProofReport;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine;

/** Reports and messages: checked up front, naming the cause, never hiding the verdict. */
class MessagesTest {
    @TempDir
    Path dir;

    @Test
    void theReportIsCheckedBeforeTheRunAndMayNotBeAnInput() throws Exception {
        Path csv = dir.resolve("u.csv");
        Files.writeString(csv, "id,bal\n1,1\n");
        Outcome same = run("prove", "--upserts", csv.toString(), "--report", csv.toString());
        assertEquals(Main.FAILED, same.status());
        assertTrue(same.err().contains("is also an input of this run"), same.err());
        assertEquals("id,bal\n1,1\n", Files.readString(csv), "the input is untouched");
        Outcome underFile = run("prove", "--report", csv.resolve("r.json").toString());
        assertEquals(Main.FAILED, underFile.status());
        assertTrue(underFile.err().contains("is a file, not a directory"), underFile.err());
        assertFalse(underFile.err().contains("starting Flink"), underFile.err());
        Outcome isDir = run("prove", "--report", dir.toString());
        assertTrue(isDir.err().contains("is a directory, not a file"), isDir.err());
    }

    @Test
    void aReportThatCannotBeWrittenKeepsTheVerdictsExitStatus() throws Exception {
        Path target = dir.resolve("gone/r.json");
        OutputFile file = OutputFile.check("--report", target, List.of());
        // The directory disappears during the run and a file takes its place.
        Files.delete(target.getParent());
        Files.writeString(target.getParent(), "in the way");
        ObjectNode json = dev.tierproof.report.Report.newObject();
        Verdict inconsistent = new Verdict(false, true, "the last write per key", List.of("id", "bal"),
                List.of(List.of("1", "2")), 1, true, List.of(), List.of(), List.of(), null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ReportOutput.print(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), new ProofReport(json, inconsistent,
                        "CREATE TABLE t (id INT, bal INT)", List.of(), Map.of("total", 1L)), file, "DDL");
        assertEquals(Main.INCONSISTENT, status);
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("--report " + target + " could not be written"), e);
        assertTrue(e.toLowerCase(java.util.Locale.ROOT).contains("not a directory"), e);
    }

    @Test
    void aFailedRunLeavesAReportThatSaysSo() throws Exception {
        Path report = dir.resolve("failed.json");
        Path ddl = dir.resolve("t.sql");
        Files.writeString(ddl, "CREATE TABLE t (id INT, bal INT) WITH ('file.compression' = 'no-such-codec')");
        Outcome o = run("prove", "--ddl-file", ddl.toString(), "--report", report.toString());
        assertEquals(Main.FAILED, o.status(), o.out() + o.err());
        var r = new ObjectMapper().readTree(report.toFile());
        assertEquals("failed", r.path("status").asText(), r.toString());
        assertEquals("INSERT 1 of 12", r.path("step").asText(), r.toString());
        // No engine stack trace without --verbose.
        assertFalse(o.err().contains("\tat "), o.err());
        Outcome verbose = run("prove", "--ddl-file", ddl.toString(), "--verbose");
        assertTrue(verbose.err().contains("\tat "), "--verbose shows the stack trace");
    }

    @Test
    void inputsNameTheirCause() throws Exception {
        Outcome noDdl = run("prove", "--ddl-file", dir.resolve("none.sql").toString());
        assertTrue(noDdl.err().contains("cannot read --ddl-file " + dir.resolve("none.sql")
                + ": no such file or directory"), noDdl.err());
        Path file = dir.resolve("afile");
        Files.writeString(file, "x");
        Outcome whFile = run("prove", "--warehouse", file.toString());
        assertTrue(whFile.err().contains("--warehouse " + file + " is a file, not a directory"), whFile.err());
        Path csv = dir.resolve("bad.csv");
        Files.write(csv, new byte[] {'i', 'd', ',', 'b', 'a', 'l', '\n', '1', ',', '2', '\n', '3', ',', (byte) 0xff,
            '\n'});
        Outcome utf8 = run("prove", "--upserts", csv.toString());
        assertTrue(utf8.err().contains(csv + ": workload line 3 is not valid UTF-8: byte 0xFF at column 3"),
                utf8.err());
        Path header = dir.resolve("empty.csv");
        Files.writeString(header, "id,bal\n");
        assertTrue(run("prove", "--upserts", header.toString()).err().contains("holds no operations"));
        assertTrue(run("prove", "--random", "0").err().contains("--random 0 must be between 1 and 10000000"));
        Outcome keys = run("prove", "--keys", "3");
        assertEquals(Main.FAILED, keys.status());
        assertTrue(keys.err().contains("--keys needs --random N"), keys.err());
        assertTrue(run("prove", "--upserts", csv.toString(), "--seed", "2").err().contains("--seed needs --random"));
        assertTrue(run("matrix", "--keys", "3").err().contains("--keys needs --random N"));
    }

    @Test
    void searchChecksItsReproducerFilesAndItsDdlUpFront() throws Exception {
        Path out = dir.resolve("repro");
        Files.createDirectories(out);
        Path ddl = out.resolve("table.sql");
        Files.writeString(ddl, "CREATE TABLE plain (id INT, bal INT)");
        Outcome both = run("search", "--ddl-file", ddl.toString(), "--random-tables");
        assertTrue(both.err().contains("give --random-tables or a table (--ddl-file, --spec), not both"), both.err());
        Outcome rerun = run("search", "--ddl-file", ddl.toString(), "--out", out.toString());
        assertEquals(Main.FAILED, rerun.status());
        assertTrue(rerun.err().contains("table.sql is also an input of this run"), rerun.err());
        assertEquals("CREATE TABLE plain (id INT, bal INT)", Files.readString(ddl));
        Path withDb = dir.resolve("db.sql");
        Files.writeString(withDb, "CREATE TABLE ledger.plain (id INT, bal INT)");
        Outcome db = run("search", "--ddl-file", withDb.toString());
        assertTrue(db.err().contains(withDb + " names a database; search proves each trial in a database of its"
                + " own"), db.err());
        Outcome badJudge = run("search", "--judge-as", ddl.toString(), "--spec", "k: INT, v: STRING; key = k");
        assertTrue(badJudge.err().contains("--judge-as " + ddl + ": "), badJudge.err());
    }

    @Test
    void aLakeStoreRestartNeedsTheClusterThatRunsOne() {
        Outcome embedded = run("streamhouse", "--random", "20", "--faults", "restart-lake@10");
        assertEquals(Main.FAILED, embedded.status());
        assertTrue(embedded.err().contains("--faults restart-lake kills the lake's store, which tierproof does only on"
                + " the cluster ./build.sh cluster up starts: run it with --cluster DIR"), embedded.err());
        assertFalse(embedded.err().contains("starting Fluss"), embedded.err());
        Outcome search = run("search", "--streamhouse", "--faults", "restart-tablet,restart-lake");
        assertEquals(Main.FAILED, search.status());
        assertTrue(search.err().contains("restart-lake needs cluster up's cluster"), search.err());
    }

    @Test
    void readsThatCannotBeRunAloneAreRefusedBeforeAnythingStarts() {
        Outcome unknown = run("streamhouse", "--random", "20", "--reads", "paimon_batch,fluss_snapshot");
        assertEquals(Main.FAILED, unknown.status());
        assertTrue(unknown.err().contains("--reads: fluss_snapshot is not a read; the reads are paimon_batch,"
                + " paimon_streaming, paimon_replay, fluss_changelog, fluss_full, fluss_union, views"), unknown.err());
        Outcome full = run("streamhouse", "--random", "20", "--reads", "fluss_full");
        assertEquals(Main.FAILED, full.status());
        assertTrue(full.err().contains("--reads fluss_full needs paimon_batch"), full.err());
        Outcome views = run("streamhouse", "--random", "20", "--reads", "views");
        assertEquals(Main.FAILED, views.status());
        assertTrue(views.err().contains("--reads names no read of the whole table"), views.err());
        Outcome lakeViews = run("streamhouse", "--random", "20", "--reads", "paimon_batch,views");
        assertEquals(Main.FAILED, lakeViews.status());
        assertTrue(lakeViews.err().contains("--reads views needs fluss_union"), lakeViews.err());
        Outcome notALength = run("search", "--for", "soon");
        assertEquals(Main.FAILED, notALength.status());
        assertTrue(notALength.err().contains("--for soon is not a length such as 90s, 30m or 2h"), notALength.err());
        Outcome paimonSearch = run("search", "--reads", "paimon_batch");
        assertEquals(Main.FAILED, paimonSearch.status());
        assertTrue(paimonSearch.err().contains("--reads needs --streamhouse"), paimonSearch.err());
        Outcome search = run("search", "--streamhouse", "--reads", "fluss_full,views");
        assertEquals(Main.FAILED, search.status());
        assertTrue(search.err().contains("--reads fluss_full needs paimon_batch"), search.err());
        for (Outcome o : List.of(unknown, full, views, lakeViews, paimonSearch, search)) {
            assertFalse(o.err().contains("starting Fluss"), o.err());
        }
    }

    /** A read-only file system (a read-only tmpfs mounted for the test: CI runs as root). */
    @Test
    void aReadOnlyWarehouseSaysSo() throws Exception {
        Path ro = dir.resolve("ro");
        Files.createDirectories(ro);
        Process mount = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", ro.toString())
                .redirectErrorStream(true).start();
        assertTrue(mount.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, mount.exitValue(), "mounting a read-only tmpfs needs root: "
                + new String(mount.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        try {
            Outcome o = run("prove", "--warehouse", ro.resolve("wh").toString());
            assertEquals(Main.FAILED, o.status());
            assertTrue(o.err().contains("Read-only file system"), o.err());
            Outcome inside = run("prove", "--warehouse", ro.toString());
            assertTrue(inside.err().contains("cannot be written") && inside.err().contains("Read-only file system"),
                    inside.err());
        } finally {
            new ProcessBuilder("umount", ro.toString()).start().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** help lists every option each command takes: it is generated from the parser. */
    @Test
    void helpListsEveryOptionOfEveryCommand() {
        List<TierproofCommand> commands = List.of(new ProveCommand(), new StreamhouseCommand(), new MatrixCommand(),
                new SearchCommand(), new DdlCommand());
        for (TierproofCommand c : commands) {
            CommandLine parsed = new CommandLine(c);
            String command = parsed.getCommandName();
            Outcome help = run("help", command);
            assertEquals(0, help.status());
            for (OptionSpec option : parsed.getCommandSpec().options()) {
                assertTrue(help.out().contains(option.longestName()), command + " help lacks " + option.longestName()
                        + ":\n" + help.out());
            }
        }
        assertTrue(run("help").out().contains("streamhouse"));
    }

    @Test
    void partitionValuesNeedARandomWorkloadAndAreNeverNegative() {
        Outcome alone = run("prove", "--partition-values", "2");
        assertEquals(Main.FAILED, alone.status());
        assertTrue(alone.err().contains("--partition-values needs --random N"), alone.err());
        Outcome negative = run("prove", "--random", "20", "--partition-values", "-1");
        assertEquals(Main.FAILED, negative.status());
        assertTrue(negative.err().contains("--partition-values -1 must be at least 0"), negative.err());
        assertFalse(negative.err().contains("starting Flink"), negative.err());
        Outcome search = run("search", "--partition-values", "-1");
        assertEquals(Main.FAILED, search.status());
        assertTrue(search.err().contains("--partition-values -1 must be between 0 and"), search.err());
        // So for a hot key's share: with --random only, 0 to 100, before anything starts.
        Outcome hotAlone = run("prove", "--hot-keys", "50");
        assertTrue(hotAlone.err().contains("--hot-keys needs --random N"), hotAlone.err());
        Outcome hot = run("streamhouse", "--random", "20", "--hot-keys", "101");
        assertEquals(Main.FAILED, hot.status());
        assertTrue(hot.err().contains("--hot-keys 101 must be between 0 and 100"), hot.err());
        assertFalse(hot.err().contains("starting"), hot.err());
    }

    @Test
    void tabletServersSizeTheEmbeddedClusterOnly() {
        Outcome many = run("streamhouse", "--random", "20", "--tablet-servers", "9");
        assertEquals(Main.FAILED, many.status());
        assertTrue(many.err().contains("--tablet-servers 9 must be between 1 and 5"), many.err());
        Outcome remote = run("streamhouse", "--random", "20", "--tablet-servers", "3", "--fluss", "127.0.0.1:1",
                "--warehouse", "/tmp/none");
        assertEquals(Main.FAILED, remote.status());
        assertTrue(remote.err().contains("--tablet-servers sizes the embedded cluster"), remote.err());
        assertFalse(remote.err().contains("starting Fluss"), remote.err());
    }
}
