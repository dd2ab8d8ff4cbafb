package dev.tierproof.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Upserts;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.flink.BoundedRead;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import dev.tierproof.support.FlinkEngineExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The proof of the exercise's tiered table on a real Flink MiniCluster and a real Paimon warehouse. */
class PaimonProofTest {
    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(4);

    static final Duration DEADLINE = Duration.ofSeconds(90);
    static final String EXAMPLE = "id,bal\n1,100\n2,200\n3,300\n1,150\n2,\n4,400\n3,-50\n1,175\n5,500\n4,410\n2,250\n5,\n";

    @TempDir
    Path warehouse;

    static Workload tiered(String table, String csv) {
        return Workload.open(Workload.Target.PAIMON, Ddl.tierTableDdl(table), csv.getBytes(StandardCharsets.UTF_8));
    }

    ProofReport prove(String table, Workload workload, int rowsPerInsert) {
        try (workload) {
            return PaimonProof.run(FLINK.engine(), new PaimonProof.Config(table, workload, warehouse, DEADLINE,
                    rowsPerInsert), Steps.silent());
        }
    }

    static List<List<String>> rows(String... pairs) {
        return java.util.Arrays.stream(pairs).map(p -> {
            String[] c = p.split(",", -1);
            return java.util.Arrays.asList(c[0], c[1].isEmpty() ? null : c[1]);
        }).toList();
    }

    /** The exercise: its DDL, its statements one a job, the last value per id in every read. */
    @Test
    void theTieredTableOneStatementPerUpsertIsConsistent() {
        Workload w = tiered("accounts", EXAMPLE);
        ProofReport r = prove(null, w, 1);
        Verdict v = r.verdict();
        assertThat(r.consistent()).as(r.toJson()).isTrue();
        assertThat(r.json().path("statements").asInt()).isEqualTo(12);
        assertThat(v.expectedRows()).isEqualTo(rows("1,175", "2,250", "3,-50", "4,410", "5,"));
        for (String read : List.of("batch", "streaming", "paimon_replay")) {
            // The core says a read holds exactly the expected rows once, by leaving its rows out.
            Verdict.Read folded = v.read(read).orElseThrow();
            assertThat(folded.rows()).as(read).isNull();
            assertThat(folded.rowCount()).as(read).isEqualTo(5);
            assertThat(v.rowsOf(read)).as(read).isEqualTo(v.expectedRows());
        }
        // The replays streamed every write, not just the merged state: Flink's and Paimon's own
        // (the sentinel commit that ends them is read too, and left out).
        assertThat(v.read("streaming").orElseThrow().changes()).isEqualTo(12);
        assertThat(v.read("paimon_replay").orElseThrow().changes()).isEqualTo(12);
        assertThat(warehouse.resolve("default.db/accounts")).isDirectory();
    }

    /** The statements that ran are the exercise's own, byte for byte. */
    @Test
    void oneStatementPerUpsertIsTheExercisesText() {
        try (Workload w = tiered("accounts", EXAMPLE)) {
            List<String> ours = w.statements(1).stream().map(Workload.Statement::sql).toList();
            dev.tierproof.core.Rows.Builder b = new dev.tierproof.core.Rows.Builder();
            for (List<String> row : rows("1,100", "2,200", "3,300", "1,150", "2,", "4,400", "3,-50", "1,175",
                    "5,500", "4,410", "2,250", "5,")) {
                b.add(Integer.parseInt(row.get(0)), row.get(1) == null ? null : Integer.parseInt(row.get(1)));
            }
            assertThat(ours).isEqualTo(Upserts.upsertInserts("accounts", b.build()));
        }
    }

    /** The negative control: a table without a key keeps every version, so the keyed promise fails. */
    @Test
    void appendOnlyJudgedByTheKeyedPromiseShowsTheExtraVersions() {
        Workload w = Workload.openJudgedAs(Workload.Target.PAIMON, Ddl.appendOnlyTableDdl("appendonly", Map.of()),
                Ddl.tierTableDdl("appendonly"), EXAMPLE.getBytes(StandardCharsets.UTF_8));
        ProofReport r = prove(null, w, 1);
        assertThat(r.consistent()).isFalse();
        Verdict.Check batch = r.verdict().checks().stream()
                .filter(c -> c.left().equals("expected") && c.right().equals("batch")).findFirst().orElseThrow();
        assertThat(batch.missing()).isEmpty();
        // 12 writes over 5 ids: 7 superseded versions show up as extra rows.
        assertThat(batch.extra()).hasSize(7);
        assertThat(r.verdict().rowsOf("batch")).hasSize(12);
    }

    /** The fast path relies on this: one INSERT with many writes to one id keeps their order. */
    @Test
    void oneMultiRowInsertKeepsTheOrderOfWritesToOneId() {
        StringBuilder csv = new StringBuilder("id,bal\n");
        for (int i = 1; i <= 500; i++) {
            csv.append(i % 3).append(',').append(i).append('\n'); // ids 0, 1, 2 over and over; the last wins
        }
        ProofReport r = prove(null, tiered("ordered", csv.toString()), 1000);
        assertThat(r.json().path("statements").asInt()).isEqualTo(1);
        assertThat(r.verdict().rowsOf("batch")).isEqualTo(rows("0,498", "1,499", "2,500"));
        assertThat(r.consistent()).as(r.toJson()).isTrue();
    }

    /**
     * One ordered job (issue 10): a whole random workload — every type's edge values, NULLs,
     * deletes of present and absent keys, 20 000 operations over 300 keys in two buckets — written
     * by one Flink job, one commit: every read holds the last write per key, and the input
     * changelog replays each write as the statements would have written it.
     */
    @Test
    void oneOrderedJobKeepsTheOrderOfAWholeWorkload() {
        String ddl = "CREATE TABLE mixed (region STRING, id BIGINT, amount DECIMAL(12, 2), day DATE,"
                + " ts TIMESTAMP(3), at TIMESTAMP_LTZ(3), flag BOOLEAN, bin BYTES, ratio DOUBLE,"
                + " PRIMARY KEY (region, id) NOT ENFORCED) WITH ('bucket' = '2', 'changelog-producer' = 'input')";
        Workload w = Workload.generate(Workload.Target.PAIMON, ddl, 20_000, 300, 5, true);
        assertThat(w.workloadCsv()).contains("delete,");
        ProofReport r;
        try (w) {
            r = PaimonProof.run(FLINK.engine(), new PaimonProof.Config(null, w, warehouse, DEADLINE, 1,
                    PaimonProof.Writer.JOB), Steps.silent());
        }
        assertThat(r.consistent()).as(r.summary()).isTrue();
        assertThat(r.json().path("writer").asText()).isEqualTo("job");
        assertThat(r.json().has("statements")).isFalse();
        assertThat(r.verdict().rowsOf("batch")).isEqualTo(r.verdict().expectedRows())
                .isNotEmpty();
        assertThat(r.verdict().read("paimon_replay").orElseThrow().changes()).isGreaterThan(15_000);
    }

    /** A delete that is more than its key (partial update) is refused by the ordered job before anything is made. */
    @Test
    void theOrderedJobRefusesDeletesItCannotWriteAsStatementsDo() {
        String ddl = "CREATE TABLE partial (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('merge-engine' ="
                + " 'partial-update', 'partial-update.remove-record-on-delete' = 'true')";
        Workload w = Workload.open(Workload.Target.PAIMON, ddl, "op,k,v\nupsert,1,2\ndelete,1,\n".getBytes(
                StandardCharsets.UTF_8));
        try (w) {
            assertThatThrownBy(() -> PaimonProof.run(FLINK.engine(), new PaimonProof.Config(null, w, warehouse,
                    DEADLINE, 1, PaimonProof.Writer.JOB), Steps.silent()))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--writer statements");
        }
        assertThat(warehouse.resolve("default.db/partial")).doesNotExist();
    }

    @Test
    void aRandomWorkloadWithNullsExtremesAndDeletesBatched() {
        Workload w = Workload.generate(Workload.Target.PAIMON, Ddl.tierTableDdl("random"), 3000, 400, 11, true);
        String csv = w.workloadCsv();
        assertThat(csv).as("NULLs, INT's minimum and deletes").contains(",\n", "\"-2147483648\"", "delete,");
        ProofReport r = prove(null, w, 700);
        assertThat(r.consistent()).as(r.toJson()).isTrue();
        JsonNode j = r.json();
        assertThat(j.path("operations").asInt()).isEqualTo(3000);
        // Windows of at most 700 upserts and their deletes; a window closes before a key it deletes is written.
        assertThat(j.path("statements").asInt()).isBetween(6, 200);
    }

    @Test
    void aUsersOwnDdlInAnotherDatabaseIsProved() {
        Workload w = Workload.open(Workload.Target.PAIMON, Ddl.keyedTableDdl("mine", "deduplicate", "input", 2,
                Map.of("file.format", "avro")), EXAMPLE.getBytes(StandardCharsets.UTF_8));
        ProofReport r = prove("ledger.mine", w, 1);
        assertThat(r.consistent()).as(r.toJson()).isTrue();
        assertThat(r.json().path("paimon").path("database").asText()).isEqualTo("ledger");
    }

    @Test
    void anExistingTableIsNeverOverwritten() {
        prove(null, tiered("once", EXAMPLE), 100);
        assertThatThrownBy(() -> prove(null, tiered("once", EXAMPLE), 100))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already exists");
    }

    /** A streaming read with no bound must end at its deadline with a clear error, never hang. */
    @Test
    void anUnboundedReadEndsAtItsDeadline() {
        prove(null, tiered("unbounded", EXAMPLE), 100);
        TableEnvironment streaming = FLINK.engine().streamingTables();
        PaimonTables.register(streaming, warehouse);
        long start = System.nanoTime();
        try (Workload w = tiered("unbounded", EXAMPLE); Workload.Reads reads = w.reads()) {
            String query = w.selectAll(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1",
                    "continuous.discovery-interval", "100ms"));
            assertThatThrownBy(() -> BoundedRead.collect(Steps.silent(), streaming, query,
                    reads.open("streaming", Workload.Source.REPLAY), Duration.ofSeconds(5)))
                    .isInstanceOf(TierproofException.class)
                    .hasMessageContaining("did not end within its deadline of 5 s")
                    // 12 upserts in one commit (the sentinel was rolled back): every change counts.
                    .hasMessageContaining("it had read 12 changes");
        }
        assertThat((System.nanoTime() - start) / 1e9).isLessThan(30);
    }
}
