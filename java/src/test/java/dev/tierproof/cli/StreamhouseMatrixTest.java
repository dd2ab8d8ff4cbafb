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
 * {@code matrix --streamhouse}: a grid of Fluss table shapes on one cluster. A two-bucket keyed
 * table keeps the promise; the same table partitioned by an INT column does not (Fluss 0.9.1's
 * union read: docs/findings/fluss-0.9-int-partition-union-read-duplicates.md), and the grid says
 * which reads broke.
 */
class StreamhouseMatrixTest {
    @TempDir
    Path dir;

    @Test
    void theGridShowsWhichShapesKeepThePromise() throws Exception {
        Path md = dir.resolve("m.md");
        Path html = dir.resolve("m.html");
        Path json = dir.resolve("m.json");
        Outcome o = run("matrix", "--streamhouse", "--kinds", "pk", "--buckets", "2", "--partitions", "none,INT",
                "--random", "20", "--keys", "4", "--markdown", md.toString(), "--html", html.toString(),
                "--report", json.toString());
        assertThat(o.status()).as(o.out() + o.err()).isEqualTo(Main.INCONSISTENT);
        assertThat(o.out()).contains("| pk, 2 buckets | ✅ consistent |");
        JsonNode r = new ObjectMapper().readTree(json.toFile());
        assertThat(r.path("rows").size()).isEqualTo(2);
        JsonNode plain = r.path("rows").get(0);
        assertThat(plain.path("verdict").asText()).isEqualTo("consistent");
        assertThat(plain.path("cuts").asText()).matches("(\\d+)/\\1");
        JsonNode intPartition = r.path("rows").get(1);
        assertThat(intPartition.path("partition").asText()).isEqualTo("INT");
        assertThat(intPartition.path("verdict").asText()).isNotEqualTo("consistent");
        assertThat(intPartition.path("reason").asText()).isNotEmpty();
        assertThat(intPartition.path("reads").path("fluss_union").asText()).isIn("inconsistent", "failed");
        assertThat(Files.readString(md)).contains("pk, 2 buckets, INT partition");
        assertThat(Files.readString(html)).startsWith("<!doctype html>").contains("INT partition");
    }

    @Test
    void aBadGridIsRefusedBeforeAnythingStarts() {
        Outcome kind = run("matrix", "--streamhouse", "--kinds", "pk,append");
        assertThat(kind.status()).isEqualTo(Main.FAILED);
        assertThat(kind.err()).contains("table kind append is not one of [pk, first-row, log]")
                .doesNotContain("starting Fluss");
        assertThat(run("matrix", "--streamhouse", "--lake-options", "deletion-vectors").err())
                .contains("lake option deletion-vectors is not none or KEY=VALUE");
        assertThat(run("matrix", "--streamhouse", "--spec", "k: INT").err()).contains("--streamhouse makes its own");
    }
}
