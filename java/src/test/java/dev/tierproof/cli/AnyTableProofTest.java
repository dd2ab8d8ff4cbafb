package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tierproof.cli.MainTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's table of another shape, proved from a DDL file and a workload CSV on real Flink and
 * Paimon: a composite key, a DECIMAL, a STRING, a DATE partition column, 4 buckets, deletes.
 */
class AnyTableProofTest {
    static final String LEDGER = "CREATE TABLE ledger (\n"
            + "  region STRING, id BIGINT, amount DECIMAL(12, 2), note STRING, day DATE,\n"
            + "  PRIMARY KEY (region, id, day) NOT ENFORCED\n"
            + ") PARTITIONED BY (day) WITH ('bucket' = '4', 'changelog-producer' = 'input'%s)";

    static final String OPS = "op,region,id,amount,note,day\n"
            + ",eu,1,10.50,first,2024-02-29\n"
            + ",eu,2,3,,2024-02-29\n"
            + ",us,1,7.25,\"a, b\",2024-03-01\n"
            + "upsert,eu,1,11.00,second,2024-02-29\n"
            + "delete,eu,2,,,2024-02-29\n"
            + "delete,jp,9,,,2024-03-01\n"
            + ",eu,3,-0.01,\"\",2024-03-01\n"
            + ",eu,1,12.00,NULL,2024-02-29\n";

    @TempDir
    Path dir;

    Outcome prove(String options, String... more) throws Exception {
        Path ddl = dir.resolve("ledger.sql");
        Files.writeString(ddl, String.format(LEDGER, options));
        Path csv = dir.resolve("ops.csv");
        Files.writeString(csv, OPS);
        String[] args = new String[6 + more.length];
        System.arraycopy(new String[] {"prove", "--ddl-file", ddl.toString(), "--upserts", csv.toString()}, 0, args,
                0, 5);
        args[5] = "--verbose";
        System.arraycopy(more, 0, args, 6, more.length);
        return run(args);
    }

    @Test
    void aCompositeKeyDecimalStringDatePartitionFourBucketsAndDeletes() throws Exception {
        Path report = dir.resolve("r.json");
        Outcome o = prove("", "--report", report.toString(), "--rows-per-insert", "2");
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
        assertThat(o.out()).contains("expected state   : 3 rows (eu, 1, 12.00, \"NULL\", 2024-02-29)"
                + " (eu, 3, -0.01, \"\", 2024-03-01) (us, 1, 7.25, \"a, b\", 2024-03-01)");
        assertThat(o.out()).contains("verdict          : CONSISTENT");
        JsonNode r = new ObjectMapper().readTree(report.toFile());
        // Windows of 2: INSERT of 2 rows, INSERT of 2, one DELETE of both keys, INSERT of 2.
        assertThat(r.path("statements").asInt()).isEqualTo(4);
        JsonNode batch = r.path("verdict").path("reads").get(0);
        assertThat(batch.path("name").asText()).isEqualTo("batch");
        // Its rows are exactly the expected ones: the report says so once (rows null), with their count.
        assertThat(batch.path("rows").isNull()).isTrue();
        assertThat(batch.path("row_count").asInt()).isEqualTo(3);
        // The sentinel commit bounded the replay and was rolled back.
        assertThat(r.path("sentinel").path("rolled_back_to").asLong())
                .isEqualTo(r.path("sentinel").path("snapshot").asLong() - 1);
    }

    /** 'ignore-delete' is part of the model: the deleted row stays, in Paimon and in the expected state. */
    @Test
    void aTableThatIgnoresDeletesKeepsTheRowAsTheModelSays() throws Exception {
        Outcome o = prove(", 'ignore-delete' = 'true'");
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
        assertThat(o.out()).contains("expected state   : 4 rows").contains("(eu, 2, 3.00, NULL, 2024-02-29)");
    }

    static final String KAS = "CREATE TABLE t (k INT, a INT, s STRING, PRIMARY KEY (k) NOT ENFORCED) WITH (%s)";
    static final String KAS_OPS = "k,a,s\n1,5,x\n2,7,\n1,,y\n1,3,\n2,1,z\n";

    Outcome proveKas(String options) throws Exception {
        Path ddl = dir.resolve("t.sql");
        Files.writeString(ddl, String.format(KAS, options));
        Path csv = dir.resolve("kas.csv");
        Files.writeString(csv, KAS_OPS);
        return run("prove", "--ddl-file", ddl.toString(), "--upserts", csv.toString(), "--rows-per-insert", "1");
    }

    /** Paimon's merge engines on real Paimon, each against the oracle's model of it. */
    @Test
    void mergeEnginesAgreeWithTheModel() throws Exception {
        Outcome first = proveKas("'merge-engine' = 'first-row', 'changelog-producer' = 'lookup'");
        assertThat(first.status()).as(first.out() + first.err()).isEqualTo(Main.CONSISTENT);
        assertThat(first.out()).contains("expected state   : 2 rows (1, 5, x) (2, 7, NULL)")
                .contains("the expected state (the first write per key (first-row))")
                .contains("streaming        : 2 changes");
        Outcome sum = proveKas("'merge-engine' = 'aggregation', 'fields.a.aggregate-function' = 'sum',"
                + " 'changelog-producer' = 'lookup'");
        assertThat(sum.status()).as(sum.out() + sum.err()).isEqualTo(Main.CONSISTENT);
        assertThat(sum.out()).contains("expected state   : 2 rows (1, 8, y) (2, 8, z)");
        Outcome partial = proveKas("'merge-engine' = 'partial-update', 'changelog-producer' = 'input'");
        assertThat(partial.status()).as(partial.out() + partial.err()).isEqualTo(Main.CONSISTENT);
        assertThat(partial.out()).contains("expected state   : 2 rows (1, 3, y) (2, 1, z)")
                .contains("replays not judged: merge-engine \"partial-update\" with changelog-producer \"input\"");
    }

    /** A delete a table cannot take is refused by name before anything starts. */
    @Test
    void aDeleteAFirstRowTableCannotTakeIsRefused() throws Exception {
        Path ddl = dir.resolve("t.sql");
        Files.writeString(ddl, String.format(KAS, "'merge-engine' = 'first-row'"));
        Path csv = dir.resolve("del.csv");
        Files.writeString(csv, "op,k,a,s\n,1,1,x\ndelete,1,,\n");
        Outcome o = run("prove", "--ddl-file", ddl.toString(), "--upserts", csv.toString());
        assertThat(o.status()).isEqualTo(Main.FAILED);
        assertThat(o.err()).contains("operation 2 is a delete: a first-row table takes no deletes")
                .doesNotContain("starting Flink");
    }

    @Test
    void badWorkloadsAreRefusedBeforeAnythingRuns() throws Exception {
        Path ddl = dir.resolve("t.sql");
        Files.writeString(ddl, String.format(LEDGER, ""));
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "region,id,amount,note,day\neu,1,1.005,,2024-02-29\n");
        Outcome o = run("prove", "--ddl-file", ddl.toString(), "--upserts", csv.toString());
        assertThat(o.status()).isEqualTo(Main.FAILED);
        assertThat(o.err()).contains("CSV line 2: column amount: DECIMAL(12, 2) value \"1.005\"")
                .doesNotContain("starting Flink");
        Outcome both = run("prove", "--ddl-file", ddl.toString(), "--random", "10", "--upserts", csv.toString());
        assertThat(both.err()).contains("give --upserts FILE or --random N, not both");
        Outcome none = run("prove", "--ddl-file", ddl.toString());
        assertThat(none.err()).contains("is not the (id INT, bal INT) table: give its workload as --upserts");
    }

    /** A seeded workload for the ledger: repeated keys, deletes of present and absent keys, edges. */
    @Test
    void aRandomWorkloadForTheLedger() throws Exception {
        Path ddl = dir.resolve("ledger.sql");
        Files.writeString(ddl, String.format(LEDGER, ""));
        Outcome o = run("prove", "--ddl-file", ddl.toString(), "--random", "120", "--keys", "15", "--seed", "7",
                "--rows-per-insert", "60");
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
        assertThat(o.out()).contains("120 random operations over 15 keys, seed 7");
    }

    /** Every type's edge values, generated, through the whole proof: writes, batch read, replay. */
    @Test
    void everyTypeInARandomWorkload() throws Exception {
        Path ddl = dir.resolve("all.sql");
        Files.writeString(ddl, "CREATE TABLE all_types (k1 STRING, k2 DATE, b BOOLEAN, ti TINYINT, si SMALLINT,"
                + " i INT, bi BIGINT, f FLOAT, d DOUBLE, dec38 DECIMAL(38, 18), c3 CHAR(3), vc5 VARCHAR(5),"
                + " bin2 BINARY(2), vb BYTES, t3 TIME(3), ts9 TIMESTAMP(9), ltz3 TIMESTAMP_LTZ(3),"
                + " PRIMARY KEY (k1, k2) NOT ENFORCED) WITH ('bucket' = '2', 'changelog-producer' = 'input')");
        Outcome o = run("prove", "--ddl-file", ddl.toString(), "--random", "80", "--keys", "12", "--seed", "3",
                "--rows-per-insert", "50");
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
    }

    /** A generated table from a compact spec, a random workload, partial-update on real Paimon. */
    @Test
    void aSpecTableWithARandomPartialUpdateWorkload() throws Exception {
        String spec = "k: STRING, d: DATE, n: INT, v: DECIMAL(10, 3), s: STRING; key = k, d; partition = d;"
                + " buckets = 3; engine = partial-update";
        Outcome o = run("prove", "--spec", spec, "--table", "gen", "--random", "90", "--keys", "12", "--seed", "4",
                "--rows-per-insert", "30");
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
        assertThat(o.out()).contains("CREATE TABLE `gen`").contains("'merge-engine' = 'partial-update'")
                .contains("no deletes: a partial-update table takes no deletes");
        Outcome ddl = run("ddl", "--spec", spec, "--table", "gen", "--fluss");
        assertThat(ddl.status()).isEqualTo(Main.FAILED);
        assertThat(ddl.err()).contains("engine \"partial-update\" is not one tierproof models for Fluss");
    }

    /**
     * sequence.field on real Paimon: a lower sequence value loses; a delete carries the row it
     * found, so a later write with a lower sequence value sorts before that delete and stays gone.
     */
    @Test
    void sequenceFieldOrderAndDeletesAgreeWithTheModel() throws Exception {
        Path ddl = dir.resolve("sq.sql");
        Files.writeString(ddl, "CREATE TABLE sq (k INT, v INT, s STRING, PRIMARY KEY (k) NOT ENFORCED)"
                + " WITH ('bucket' = '1', 'sequence.field' = 'v', 'changelog-producer' = 'lookup')");
        Path csv = dir.resolve("sq.csv");
        Files.writeString(csv, "op,k,v,s\n,1,5,a\n,1,3,b\n,2,1,x\ndelete,2,,\n,2,0,y\n,3,7,p\n,3,7,q\n");
        Outcome o = run("prove", "--ddl-file", ddl.toString(), "--upserts", csv.toString(), "--rows-per-insert", "1");
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
        assertThat(o.out()).contains("expected state   : 2 rows (1, 5, a) (3, 7, q)")
                .contains("the last write per key, in sequence.field order");
    }
}
