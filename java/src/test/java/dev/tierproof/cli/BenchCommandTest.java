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
 * {@code bench}, small: every figure of issue 10 is measured in one run — the prove against
 * Paimon's Java API, the streamhouse, the default command in a JVM of its own, both searches —
 * and the table and the JSON report say each against its goal. (The figures themselves are the
 * bench's, run with {@code ./build.sh bench}; here only that it measures them all.)
 */
class BenchCommandTest {
    @TempDir
    Path dir;

    @Test
    void everyFigureIsMeasuredAgainstItsGoal() throws Exception {
        Path json = dir.resolve("bench.json");
        Outcome o = run("bench", "--operations", "3000", "--keys", "300", "--search-trials", "1",
                "--nemesis-operations", "60", "--report", json.toString());
        assertThat(o.status()).as(o.out() + o.err()).isIn(Main.CONSISTENT, Main.INCONSISTENT);
        assertThat(o.out()).contains("| figure | measured | goal | met | limit | ratio | split |")
                .contains("| prove 3,000 operations over 300 keys |").contains("(write ")
                .contains("| streamhouse 3,000 operations over 300 keys |")
                .contains("| default ./build.sh run, warm, wall |")
                .contains("| search (Paimon), 8 operations a trial |")
                .contains("| nemesis trial: 60 operations, restart-tablet@21,restart-tiering@42 |")
                .doesNotContain("INCONSISTENT").doesNotContain("FOUND ONE");
        JsonNode figures = new ObjectMapper().readTree(Files.readString(json)).path("figures");
        assertThat(figures).hasSize(9);
        assertThat(figures.get(0).path("split").asText()).contains("write", "judge");

        Outcome badNemesis = run("bench", "--nemesis-operations", "1");
        assertThat(badNemesis.status()).isEqualTo(Main.FAILED);
        assertThat(badNemesis.err()).contains("--nemesis-operations 1");
        Outcome bad = run("bench", "--keys", "0");
        assertThat(bad.status()).isEqualTo(Main.FAILED);
        assertThat(bad.err()).contains("--keys 0");
    }

    /** A warehouse that already holds a table of the bench's is refused before anything runs. */
    @Test
    void aTableOfTheBenchsNameIsNeverWrittenTo() throws Exception {
        Path warehouse = dir.resolve("wh");
        Outcome made = run("prove", "--table", "bench_prove", "--warehouse", warehouse.toString());
        assertThat(made.status()).as(made.err()).isEqualTo(Main.CONSISTENT);
        Path table = warehouse.resolve("default.db/bench_prove");
        long before;
        try (var files = Files.walk(table)) {
            before = files.count();
        }
        Outcome o = run("bench", "--operations", "100", "--keys", "10", "--search-trials", "1", "--warehouse",
                warehouse.toString());
        assertThat(o.status()).isEqualTo(Main.FAILED);
        assertThat(o.err()).contains("table default.bench_prove already exists");
        try (var files = Files.walk(table)) {
            assertThat(files.count()).as("nothing written to it").isEqualTo(before);
        }
    }
}
