package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tierproof.cli.MainTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's Fluss table of another shape through {@code streamhouse}, on a real Fluss cluster with
 * its lake tiering into real Paimon: a composite key, a DECIMAL, a STRING partition column, a
 * DATE, 4 buckets, updates and deletes, every read judged by the general oracle.
 */
class AnyFlussTableStreamhouseTest {
    static final String LEDGER = "CREATE TABLE ledger (\n"
            + "  region STRING, id BIGINT, amount DECIMAL(12, 2), note STRING, day DATE,\n"
            + "  PRIMARY KEY (region, id) NOT ENFORCED\n"
            + ") PARTITIONED BY (region) WITH ('bucket.num' = '4')";

    static final String OPS = "op,region,id,amount,note,day\n"
            + ",eu,1,10.50,first,2024-02-29\n"
            + ",eu,2,3,,2024-02-29\n"
            + ",us,1,7.25,\"a, b\",2024-03-01\n"
            + "upsert,eu,1,11.00,second,2024-02-29\n"
            + "delete,eu,2,,,2024-02-29\n"
            + ",eu,3,-0.01,\"\",2024-03-01\n"
            + ",eu,1,12.00,NULL,2024-02-29\n";

    @TempDir
    Path dir;

    @Test
    void aPartitionedLedgerWithDeletesTiersConsistently() throws Exception {
        Path ddl = dir.resolve("ledger.sql");
        Files.writeString(ddl, LEDGER);
        Path csv = dir.resolve("ops.csv");
        Files.writeString(csv, OPS);
        Path report = dir.resolve("r.html");
        Outcome o = run("streamhouse", "--ddl-file", ddl.toString(), "--upserts", csv.toString(),
                "--report", report.toString());
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
        assertThat(o.out()).contains("expected state   : 3 rows (eu, 1, 12.00, \"NULL\", 2024-02-29)"
                + " (eu, 3, -0.01, \"\", 2024-03-01) (us, 1, 7.25, \"a, b\", 2024-03-01)")
                .contains("'table.datalake.enabled' = 'true'");
        for (String read : new String[] {"paimon_batch", "paimon_streaming", "paimon_replay", "fluss_changelog",
            "fluss_full", "fluss_union"}) {
            assertThat(o.out()).contains(read);
        }
        assertThat(o.out()).contains("written by       : the Fluss client, 7 operations, every write acknowledged")
                .contains("stopped at the log end offsets: 9 changes, then 1000 ms more: nothing");
        assertThat(o.out()).contains("live checks      : ").containsPattern("consistent cut at lake snapshot \\d+ \\(seen"
                + " at \\d+ ms; 7 of 7 writes below its offsets [^)]*\\): CONSISTENT \\(3 rows\\)");
        // --report FILE.html: a page with the tier lag plotted, then what the command line printed.
        assertThat(Files.readString(report)).startsWith("<!doctype html>").contains("<svg").contains("CONSISTENT")
                .contains("fluss_union");
    }

    /**
     * Fluss 0.9.1's SQL DELETE cannot match a DATE key: the SQL producer refuses it up front,
     * naming the finding; the Fluss client writes it, and the table keeps the promise.
     */
    @Test
    void aDeleteOnADateKeyIsRefusedBySqlAndWrittenByTheClient() throws Exception {
        Path ddl = dir.resolve("d.sql");
        Files.writeString(ddl, "CREATE TABLE d (day DATE, v INT, PRIMARY KEY (day) NOT ENFORCED)");
        Path csv = dir.resolve("d.csv");
        Files.writeString(csv, "op,day,v\n,2024-02-29,1\n,2024-03-01,2\ndelete,2024-02-29,\n");
        Outcome sql = run("streamhouse", "--ddl-file", ddl.toString(), "--upserts", csv.toString(), "--producer",
                "sql");
        assertThat(sql.status()).isEqualTo(Main.FAILED);
        assertThat(sql.err()).contains("operation 3 is a delete: Fluss 0.9.1's SQL DELETE cannot match key column"
                + " day of type DATE").doesNotContain("starting Fluss");
        Outcome client = run("streamhouse", "--ddl-file", ddl.toString(), "--upserts", csv.toString());
        assertThat(client.status()).as(client.out() + client.err()).isEqualTo(Main.CONSISTENT);
        assertThat(client.out()).contains("expected state   : 1 rows (2024-03-01, 2)")
                .contains("written by       : the Fluss client, 3 operations, every write acknowledged");
    }

    /**
     * Three rounds through three Fluss clients at once: after each of the first two, tiering
     * quiesces and the lake and the union read hold exactly the operations so far. The table is
     * created without its last column (day), which {@code ALTER TABLE … ADD} adds as round 2 starts:
     * the rows of round 1 read NULL there, in the checkpoint after it and in every lake snapshot
     * read since. (Added within a round, before its rows are tiered, a Fluss 0.9.1 bug can fail the
     * union read between rounds: AddColumnProjectionFindingTest pins it.)
     */
    @Test
    void aLedgerWrittenInRoundsIsConsistentAtEveryCheckpoint() throws Exception {
        Path ddl = dir.resolve("ledger.sql");
        Files.writeString(ddl, LEDGER);
        Path csv = dir.resolve("ops.csv");
        Files.writeString(csv, OPS);
        Path report = dir.resolve("r.json");
        Outcome o = run("streamhouse", "--ddl-file", ddl.toString(), "--upserts", csv.toString(), "--rounds", "3",
                "--writers", "3", "--faults", "add-column@3", "--report", report.toString());
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
        assertThat(o.out()).contains("faults           : add-column@3 (ALTER TABLE `ledger` ADD `day` DATE, ")
                .containsPattern("consistent cut at lake snapshot \\d+ \\(seen at \\d+ ms; 2 of 7 writes below"
                        + " its offsets [^)]*\\): CONSISTENT \\(2 rows\\)");
        // Three clients at once, each its own keys (a key's writes keep their order).
        assertThat(o.out()).contains("written by       : the Fluss client (3 writers at once, each its own keys), 7"
                + " operations, every write acknowledged");
        // Operations 1-2, then 1-4 (eu 1 updated, us 1 written): 2 and 3 rows.
        assertThat(o.out()).contains("checkpoint       : after round 1 (operations 1-2, lake snapshot")
                .contains("checkpoint       : after round 2 (operations 1-4, lake snapshot")
                .contains(": CONSISTENT (2 rows)").contains(": CONSISTENT (3 rows)");
        JsonNode r = new ObjectMapper().readTree(report.toFile());
        List<String> labels = new ArrayList<>();
        r.path("checkpoints").forEach(c -> labels.add(c.path("label").asText()));
        assertThat(labels).filteredOn(l -> l.startsWith("after round")).hasSize(2);
        // Live checks: every lake snapshot seen is read at exactly that snapshot and judged against
        // the writes below its offsets; the last one (where tiering ended) holds all 7.
        assertThat(labels).filteredOn(l -> l.startsWith("consistent cut at lake snapshot")).isNotEmpty()
                .last().asString().contains("7 of 7 writes below its offsets");
        assertThat(r.path("tier_lag").size()).isGreaterThanOrEqualTo(2);
        assertThat(r.path("tier_lag").get(0).has("log_end")).isTrue();
        assertThat(r.path("producer").asText()).isEqualTo("client");
        Outcome badRounds = run("streamhouse", "--ddl-file", ddl.toString(), "--upserts", csv.toString(),
                "--rounds", "2", "--producer", "sql");
        assertThat(badRounds.err()).contains("--rounds 2 needs --producer client");
    }

    /**
     * A first_row table whose last round is one losing write: Fluss 0.9.1 logs an empty batch for
     * it that tiering never reports (docs/findings/fluss-0.9-no-change-write-lag.md), so the lake
     * never reaches the log end offset: the verdict is STALLED, with the bucket behind as
     * evidence, and the reads that end by themselves show what the lake does hold. (Written in
     * one round, the losing write shares its batch with winning ones and nothing stalls.)
     */
    @Test
    void aFirstRowTableWhoseLakeNeverCatchesUpIsStalled() throws Exception {
        Path csv = dir.resolve("first.csv");
        Files.writeString(csv, "k,v\n1,1\n2,3\n1,2\n");
        Outcome o = run("streamhouse", "--spec", "k: INT, v: INT; key = k; engine = first-row", "--upserts",
                csv.toString(), "--rounds", "3", "--deadline-s", "15");
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.INCONSISTENT);
        // Not moving at all, not merely slow: no bucket's lake offset moved while the proof waited.
        assertThat(o.out()).contains("verdict          : STALLED: writes had stopped and the lake did not reach the"
                + " log end offset: no bucket's lake offset moved in the wait's 13 s; the log holds 3 changes in 1"
                + " bucket(s); lake snapshot")
                .contains("1 bucket(s) behind").contains("at 2 of 3")
                .contains("paimon_batch     : 2 changes -> 2 rows (1, 1) (2, 3)")
                .contains("fluss_changelog  : bound: not run: tiering did not catch up")
                // The union read waits for the record the empty batch never holds: the same finding.
                .contains("failure          : fluss_union: the fluss_union read did not end within its deadline");
    }
}
