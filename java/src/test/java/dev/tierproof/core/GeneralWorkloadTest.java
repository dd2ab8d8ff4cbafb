package dev.tierproof.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tierproof.core.verdict.GeneralVerdict;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The workload handle's boundary, without an engine: reads stream into the core in batches (many
 * of them here) and are folded there; NULL, the empty string, non-BMP text survive the encoding;
 * a read that breaks the rules is judged so.
 */
class GeneralWorkloadTest {
    static final String DDL = "CREATE TABLE t (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED)";

    static GeneralWorkload workload(int keys) {
        StringBuilder csv = new StringBuilder("k,v\n");
        for (int i = 0; i < keys; i++) {
            csv.append("key-").append(i).append(",v").append(i).append('\n');
        }
        csv.append("😀,\n\"\",\"\"\n");
        return GeneralWorkload.open(GeneralWorkload.Target.PAIMON, DDL, csv.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aReadOfManyBatchesIsFoldedInTheCore() {
        int keys = 60_000;
        String pad = "x".repeat(40);
        try (GeneralWorkload w = workload(keys); GeneralWorkload.Reads reads = w.reads()) {
            GeneralWorkload.ReadBuffer batch = reads.open("batch", true);
            GeneralWorkload.ReadBuffer stream = reads.open("stream", false);
            for (int i = 0; i < keys; i++) {
                batch.add((byte) 0, new String[] {"key-" + i, "v" + i});
                // Each key written first with a padded value, then retracted and replaced: > 1 MiB of changes.
                stream.add((byte) 0, new String[] {"key-" + i, pad});
                stream.add((byte) 1, new String[] {"key-" + i, pad});
                stream.add((byte) 2, new String[] {"key-" + i, "v" + i});
            }
            for (GeneralWorkload.ReadBuffer r : Arrays.asList(batch, stream)) {
                r.add((byte) 0, new String[] {"😀", null});
                r.add((byte) 0, new String[] {"", ""});
            }
            GeneralVerdict v = reads.judge();
            assertThat(v.consistent()).as(v.toString()).isTrue();
            assertThat(v.read("stream").orElseThrow().changes()).isEqualTo(3L * keys + 2);
            assertThat(v.expectedRows()).hasSize(keys + 2).contains(Arrays.asList("😀", null), Arrays.asList("", ""));
        }
    }

    @Test
    void aReadThatBreaksTheRulesIsJudgedSo() {
        try (GeneralWorkload w = workload(2); GeneralWorkload.Reads reads = w.reads()) {
            GeneralWorkload.ReadBuffer batch = reads.open("batch", true);
            batch.add((byte) 0, new String[] {"key-0", "v0"});
            batch.add((byte) 0, new String[] {"key-0", "v0"}); // a key twice in a snapshot
            batch.add((byte) 0, new String[] {"key-1", "v1"});
            batch.add((byte) 0, new String[] {"😀", null});
            batch.add((byte) 0, new String[] {"", ""});
            GeneralVerdict v = reads.judge();
            assertThat(v.consistent()).isFalse();
            GeneralVerdict.Read read = v.read("batch").orElseThrow();
            assertThat(read.consistent()).isFalse();
            assertThat(read.anomalies()).singleElement().satisfies(a -> assertThat(a.reason()).contains("twice"));
        }
    }

    @Test
    void aClosedReadOrWorkloadRefusesUse() {
        GeneralWorkload w = workload(1);
        GeneralWorkload.ReadBuffer r = w.newRead("batch", true);
        r.close();
        r.close();
        assertThatThrownBy(() -> w.judge(java.util.List.of(r))).hasMessageContaining("closed");
        w.close();
        assertThatThrownBy(() -> w.newRead("x", true)).hasMessageContaining("closed");
    }
}
