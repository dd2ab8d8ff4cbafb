package dev.tierproof.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tierproof.cli.MainTest.Outcome;
import dev.tierproof.fluss.FlussCatalog;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.support.FlinkEngineExtension;
import dev.tierproof.support.FlussClusterExtension;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code audit} on tables someone else wrote: plain Flink SQL on the Fluss catalog creates and
 * writes them, Fluss's tiering job tiers them, then the audit checks them read-only (the lake
 * and the cluster are the same before and after), finds a known Fluss bug by itself, and refuses
 * what it cannot audit before reading anything.
 */
class AuditCommandTest {
    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(8);

    @TempDir
    Path tmp;

    private static final String LAKE = " WITH ('bucket.num' = '2', 'table.datalake.enabled' = 'true',"
            + " 'table.datalake.freshness' = '1s')";

    private Outcome audit(String table, String... more) {
        String[] args = Stream.concat(Stream.of("audit", "--fluss", FLUSS.cluster().bootstrapServers(),
                "--warehouse", FLUSS.warehouse().toString(), "--table", table), Stream.of(more)).toArray(String[]::new);
        return MainTest.run(args);
    }

    /** Every file of the lake with its size and modification time: what "writes nothing" is checked on. */
    private static Map<String, String> lakeFiles() {
        try (Stream<Path> files = Files.walk(FLUSS.warehouse())) {
            Map<String, String> out = new TreeMap<>();
            files.forEach(p -> {
                try {
                    out.put(p.toString(), Files.size(p) + "@" + Files.getLastModifiedTime(p));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode json(Path report) throws IOException {
        return new ObjectMapper().readTree(report.toFile());
    }

    @Test
    void aTableWrittenWithPlainFlinkSqlIsAuditedReadOnlyAndItsLagReported() throws Exception {
        TableEnvironment sql = FlussCatalog.register(FLINK.engine().batchTables(), FLUSS.cluster());
        sql.executeSql("CREATE TABLE ledger (k BIGINT, name STRING, amount DECIMAL(10, 2), d DATE,"
                + " PRIMARY KEY (k) NOT ENFORCED)" + LAKE).await(2, TimeUnit.MINUTES);
        FLUSS.created("fluss", "ledger");
        sql.executeSql("INSERT INTO ledger VALUES (1, 'a', 1.50, DATE '2024-02-29'), (2, 'b', CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS DATE)),"
                + " (3, 'c, d', -7.00, DATE '1970-01-01'), (4, '', 0.01, DATE '2000-01-01')").await(2, TimeUnit.MINUTES);
        sql.executeSql("INSERT INTO ledger VALUES (2, 'b2', 2.00, DATE '2024-03-01')").await(2, TimeUnit.MINUTES);
        sql.executeSql("DELETE FROM ledger WHERE k = 3").await(2, TimeUnit.MINUTES);
        TablePath path = TablePath.of("fluss", "ledger");
        try (Connection connection = ConnectionFactory.createConnection(FLUSS.cluster().clientConfig())) {
            try (Tiering tiering = Tiering.start(FLINK.engine(), FLUSS.cluster(), FLUSS.warehouse(),
                    Duration.ofMillis(500))) {
                Tiering.awaitQuiesced(connection.getAdmin(), path, Duration.ofSeconds(90));
                tiering.stop(); // gone, not only cancelled, before the lake's files are taken as they are
            }
            Map<String, String> before = lakeFiles();
            Path report = tmp.resolve("audit.json");
            Outcome o = audit("fluss.ledger", "--report", report.toString());
            assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.CONSISTENT);
            assertThat(o.out()).contains("CONSISTENT").contains("reference        : fluss_log")
                    .contains("writes           : none");
            JsonNode r = json(report);
            assertThat(r.path("quiesced").asBoolean()).isTrue();
            assertThat(r.path("tier_lag").asLong()).isZero();
            assertThat(r.path("verdict").path("expected_rows").size()).isEqualTo(3);
            assertThat(r.path("verdict").path("reads").findValuesAsText("name"))
                    .containsExactly("fluss_log", "lake_snapshot", "fluss_union", "fluss_full");
            // The log replayed to the cut held every change: 4 inserts, an update (-U/+U), a delete.
            assertThat(r.path("verdict").path("reads").get(0).path("changes").asLong()).isEqualTo(7);
            assertThat(lakeFiles()).as("the audit wrote nothing to the lake").isEqualTo(before);

            // Judged partition by partition (as a table too large for memory is): 7 changes, about 2
            // rows a partition, so 4 partitions; the same verdict, with counts instead of rows.
            Path split = tmp.resolve("split.json");
            Outcome parts = audit("fluss.ledger", "--partition-rows", "2", "--report", split.toString());
            assertThat(parts.status()).as(parts.out() + parts.err()).isEqualTo(Main.CONSISTENT);
            assertThat(parts.out()).contains("partition by partition: 4 partitions")
                    .contains("expected state   : 3 rows (judged partition by partition");
            JsonNode v = json(split).path("verdict");
            assertThat(json(split).path("partitions").asInt()).isEqualTo(4);
            assertThat(v.path("all_rows").asBoolean()).isFalse();
            assertThat(v.path("expected_row_count").asLong()).isEqualTo(3);
            assertThat(v.path("expected_rows").size()).isZero();
            assertThat(v.path("reads").findValuesAsText("row_count")).containsOnly("3");
            assertThat(audit("fluss.ledger", "--partition-rows", "0").err()).contains("--partition-rows 0");

            // Written since the cut, and not tiered: the lake snapshot is still judged against the log
            // up to it, the union read on its own (each key once), and the lag is reported.
            sql.executeSql("INSERT INTO ledger VALUES (5, 'e', 5.00, DATE '2024-05-05'), (1, 'a2', 1.00, CAST(NULL AS DATE))")
                    .await(2, TimeUnit.MINUTES);
            Outcome lagging = audit("fluss.ledger", "--every", "1", "--times", "2");
            assertThat(lagging.status()).as(lagging.out() + lagging.err()).isEqualTo(Main.CONSISTENT);
            assertThat(lagging.out()).contains("audit 1: CONSISTENT").contains("audit 2: CONSISTENT")
                    .contains("tier lag 3 of 10 changes");
            assertThat(lakeFiles()).as("the audits wrote nothing to the lake").isEqualTo(before);
        }
    }

    @Test
    void theAuditFindsTheIntPartitionUnionReadBugByItselfAndAuditsALogTable() throws Exception {
        TableEnvironment sql = FlussCatalog.register(FLINK.engine().batchTables(), FLUSS.cluster());
        sql.executeSql("CREATE TABLE by_int (k BIGINT, p INT, v INT, PRIMARY KEY (k, p) NOT ENFORCED)"
                + " PARTITIONED BY (p)" + LAKE).await(2, TimeUnit.MINUTES);
        FLUSS.created("fluss", "by_int");
        sql.executeSql("INSERT INTO by_int VALUES (1, 553, 1), (3, 7, 3)").await(2, TimeUnit.MINUTES);
        // A log table (no key; one bucket: with an empty bucket its union read never ends, another
        // finding): rows are a multiset, a duplicate row kept.
        sql.executeSql("CREATE TABLE events (id INT, msg STRING) WITH ('bucket.num' = '1',"
                + " 'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')").await(2, TimeUnit.MINUTES);
        FLUSS.created("fluss", "events");
        sql.executeSql("INSERT INTO events VALUES (1, 'x'), (1, 'x'), (2, CAST(NULL AS STRING))").await(2, TimeUnit.MINUTES);
        try (Connection connection = ConnectionFactory.createConnection(FLUSS.cluster().clientConfig());
                Tiering tiering = Tiering.start(FLINK.engine(), FLUSS.cluster(), FLUSS.warehouse(),
                        Duration.ofMillis(500))) {
            for (String t : new String[] {"by_int", "events"}) {
                Tiering.awaitQuiesced(connection.getAdmin(), TablePath.of("fluss", t), Duration.ofSeconds(90));
            }
        }
        Outcome log = audit("fluss.events");
        assertThat(log.status()).as(log.out() + log.err()).isEqualTo(Main.CONSISTENT);
        assertThat(log.out()).contains("fluss_log        : 3 changes -> 3 rows");
        Outcome o = audit("fluss.by_int");
        // docs/findings/fluss-0.9-int-partition-union-read-duplicates.md: the log and the lake agree;
        // the union read returns every row twice.
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.INCONSISTENT);
        assertThat(o.out()).contains("fluss_union").contains("a snapshot read returned this key twice");
        assertThat(o.out()).doesNotContain("lake_snapshot    : differs");
        // Partition by partition, the same findings: a key twice is found within its partition, and
        // a log table's rows (no key) are split by row.
        Outcome split = audit("fluss.by_int", "--partition-rows", "1");
        assertThat(split.status()).as(split.out() + split.err()).isEqualTo(Main.INCONSISTENT);
        assertThat(split.out()).contains("partition by partition").contains("a snapshot read returned this key twice");
        Outcome splitLog = audit("fluss.events", "--partition-rows", "1");
        assertThat(splitLog.status()).as(splitLog.out() + splitLog.err()).isEqualTo(Main.CONSISTENT);
        assertThat(splitLog.out()).contains("partition by partition: 3 partitions")
                .contains("fluss_log        : 3 changes -> 3 rows");
    }

    @Test
    void whatCannotBeAuditedIsRefusedBeforeAnythingIsRead() throws Exception {
        TableEnvironment sql = FlussCatalog.register(FLINK.engine().batchTables(), FLUSS.cluster());
        sql.executeSql("CREATE TABLE not_tiered (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)").await(2, TimeUnit.MINUTES);
        FLUSS.created("fluss", "not_tiered");
        sql.executeSql("CREATE TABLE tiered (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)" + LAKE).await(2, TimeUnit.MINUTES);
        FLUSS.created("fluss", "tiered");
        Outcome plain = audit("fluss.not_tiered");
        assertThat(plain.status()).isEqualTo(Main.FAILED);
        assertThat(plain.err()).contains("--table fluss.not_tiered is not lake-enabled");
        Outcome missing = audit("fluss.nowhere");
        assertThat(missing.status()).isEqualTo(Main.FAILED);
        assertThat(missing.err()).contains("--table fluss.nowhere: the Fluss cluster at").contains("has no such table");
        Outcome bare = audit("ledger");
        assertThat(bare.status()).isEqualTo(Main.FAILED);
        assertThat(bare.err()).contains("--table ledger is not DATABASE.TABLE");
        Outcome noLake = MainTest.run("audit", "--fluss", FLUSS.cluster().bootstrapServers(), "--table", "fluss.x");
        assertThat(noLake.status()).isEqualTo(Main.FAILED);
        assertThat(noLake.err()).contains("--warehouse DIR");
        Outcome elsewhere = MainTest.run("audit", "--fluss", FLUSS.cluster().bootstrapServers(), "--warehouse",
                tmp.toString(), "--table", "fluss.tiered");
        assertThat(elsewhere.status()).isEqualTo(Main.FAILED);
        // The cluster says where it tiers (datalake.paimon.warehouse): another warehouse is refused, naming both.
        assertThat(elsewhere.err()).contains("--warehouse " + tmp + " is not the warehouse the Fluss cluster at")
                .contains("tiers into (datalake.paimon.warehouse = ");
        assertThat(Files.list(tmp).count()).as("nothing made in a directory that is no warehouse").isZero();
    }
}
