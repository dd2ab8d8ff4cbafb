package dev.tierproof.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tierproof.core.verdict.Verdict;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The workload handle's boundary, without an engine: reads stream into the core in batches (many
 * of them here) and are folded there; NULL, the empty string, non-BMP text survive the encoding;
 * a read that breaks the rules is judged so.
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class WorkloadTest {
    static final String DDL = "CREATE TABLE t (k STRING, v STRING, PRIMARY KEY (k) NOT ENFORCED)";

    static Workload workload(int keys) {
        StringBuilder csv = new StringBuilder("k,v\n");
        for (int i = 0; i < keys; i++) {
            csv.append("key-").append(i).append(",v").append(i).append('\n');
        }
        csv.append("😀,\n\"\",\"\"\n");
        return Workload.open(Workload.Target.PAIMON, DDL, csv.toString().getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aReadOfManyBatchesIsFoldedInTheCore() {
        int keys = 60_000;
        String pad = "x".repeat(40);
        try (Workload w = workload(keys); Workload.Reads reads = w.reads()) {
            Workload.ReadBuffer batch = reads.open("batch", Workload.Source.SNAPSHOT);
            Workload.ReadBuffer stream = reads.open("stream", Workload.Source.REPLAY);
            for (int i = 0; i < keys; i++) {
                batch.add((byte) 0, new String[] {"key-" + i, "v" + i});
                // Each key written first with a padded value, then retracted and replaced: > 1 MiB of changes.
                stream.add((byte) 0, new String[] {"key-" + i, pad});
                stream.add((byte) 1, new String[] {"key-" + i, pad});
                stream.add((byte) 2, new String[] {"key-" + i, "v" + i});
            }
            for (Workload.ReadBuffer r : Arrays.asList(batch, stream)) {
                r.add((byte) 0, new String[] {"😀", null});
                r.add((byte) 0, new String[] {"", ""});
            }
            Verdict v = reads.judge();
            assertThat(v.consistent()).as(v.toString()).isTrue();
            assertThat(v.read("stream").orElseThrow().changes()).isEqualTo(3L * keys + 2);
            assertThat(v.expectedRows()).hasSize(keys + 2).contains(Arrays.asList("😀", null), Arrays.asList("", ""));
        }
    }

    @Test
    void aReadThatBreaksTheRulesIsJudgedSo() {
        try (Workload w = workload(2); Workload.Reads reads = w.reads()) {
            Workload.ReadBuffer batch = reads.open("batch", Workload.Source.SNAPSHOT);
            batch.add((byte) 0, new String[] {"key-0", "v0"});
            batch.add((byte) 0, new String[] {"key-0", "v0"}); // a key twice in a snapshot
            batch.add((byte) 0, new String[] {"key-1", "v1"});
            batch.add((byte) 0, new String[] {"😀", null});
            batch.add((byte) 0, new String[] {"", ""});
            Verdict v = reads.judge();
            assertThat(v.consistent()).isFalse();
            Verdict.Read read = v.read("batch").orElseThrow();
            assertThat(read.consistent()).isFalse();
            assertThat(read.anomalies()).singleElement().satisfies(a -> assertThat(a.reason()).contains("twice"));
        }
    }

    @Test
    void anUnknownRowKindIsBadInput() {
        try (Workload w = workload(1); Workload.Reads reads = w.reads()) {
            reads.open("stream", Workload.Source.REPLAY).add((byte) 7, new String[] {"key-0", "v0"});
            assertThatThrownBy(reads::judge).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("unknown row kind code 7");
        }
    }

    /**
     * A consistent cut: a lake snapshot must hold exactly the writes below its offsets. The same
     * read judged against the cut it came from passes, and against a cut one write off it fails.
     */
    @Test
    void aCutIsJudgedAgainstExactlyItsWrites() {
        byte[] csv = "op,k,v\n,a,1\n,b,2\n,a,3\ndelete,b,\n".getBytes(StandardCharsets.UTF_8);
        try (Workload w = Workload.open(Workload.Target.PAIMON, DDL, csv)) {
            int[][] cuts = {{0, 1, 2}, {0, 1}, {0, 1, 2, 3}};
            for (int[] cut : cuts) {
                try (Workload at = w.subset(cut); Workload.Reads reads = at.reads()) {
                    Workload.ReadBuffer lake = reads.open("lake", Workload.Source.SNAPSHOT);
                    lake.add((byte) 0, new String[] {"a", "3"}); // what the lake holds after writes 1-3
                    lake.add((byte) 0, new String[] {"b", "2"});
                    assertThat(reads.judge().consistent()).as(Arrays.toString(cut)).isEqualTo(cut.length == 3);
                }
            }
            assertThatThrownBy(() -> w.subset(new int[] {2, 1})).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("operation position 1");
        }
    }

    /** The counterexample search's shrinking: smaller workloads of the same table, then none. */
    /**
     * A write whose acknowledgement was lost may or may not have taken effect: a read without it
     * is consistent, the verdict says which choice explains it, and an acknowledged write that
     * vanished is still a finding.
     */
    @Test
    void aWriteOfUnknownOutcomeIsJudgedAsMayHaveHappened() {
        byte[] csv = "op,k,v\n,a,1\n,b,2\n,a,3\n".getBytes(StandardCharsets.UTF_8);
        try (Workload w = Workload.open(Workload.Target.PAIMON, DDL, csv); Workload lost = w.uncertain(new int[] {2})) {
            try (Workload.Reads reads = lost.reads()) {
                Workload.ReadBuffer lake = reads.open("lake", Workload.Source.SNAPSHOT);
                lake.add((byte) 0, new String[] {"a", "1"});
                lake.add((byte) 0, new String[] {"b", "2"});
                Verdict v = reads.judge();
                assertThat(v.consistent()).isTrue();
                assertThat(v.uncertain()).isEqualTo(new Verdict.Uncertain(List.of(3), "lake", List.of(3), List.of(), List.of()));
            }
            try (Workload.Reads reads = lost.reads()) {
                reads.open("lake", Workload.Source.SNAPSHOT).add((byte) 0, new String[] {"a", "1"});
                Verdict v = reads.judge();
                assertThat(v.consistent()).isFalse();
                assertThat(v.uncertain().explainedBy()).isNull();
            }
            try (Workload.Reads reads = w.reads()) {
                reads.open("lake", Workload.Source.SNAPSHOT).add((byte) 0, new String[] {"a", "1"});
                assertThat(reads.judge().uncertain()).isNull();
            }
            // A consistent cut: the acknowledged write below its offsets and, as may-have-happened, the lost one.
            try (Workload cut = w.subset(new int[] {0, 2}); Workload maybe = cut.uncertain(new int[] {1});
                    Workload.Reads reads = maybe.reads()) {
                reads.open("lake_snapshot_1", Workload.Source.SNAPSHOT).add((byte) 0, new String[] {"a", "1"});
                assertThat(reads.judge().consistent()).isTrue();
            }
            assertThatThrownBy(() -> w.uncertain(new int[] {3})).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("operation position 3 is not past the previous one and below the workload's 3");
        }
    }

    /** A hot key: about the share asked for on the first operation's key, the same for the same seed. */
    @Test
    void aHotKeyTakesItsShare() {
        String ddl = "CREATE TABLE h (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)";
        try (Workload w = Workload.generate(Workload.Target.PAIMON, ddl, 1000, 200, 3, false);
                Workload hot = w.hotKeys(90, 3); Workload again = w.hotKeys(90, 3)) {
            List<Workload.Operation> ops = hot.operations(0, 1000);
            String first = ops.get(0).cells()[0];
            long onHot = ops.stream().filter(op -> op.cells()[0].equals(first)).count();
            assertThat(onHot).isBetween(850L, 950L);
            assertThat(again.workloadCsv()).isEqualTo(hot.workloadCsv());
            assertThat(w.operations(0, 1000).stream().filter(op -> op.cells()[0].equals(first)).count())
                    .isLessThan(50);
            assertThatThrownBy(() -> w.hotKeys(101, 3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("--hot-keys 101 must be between 0 and 100");
        }
    }

    /** A write the client reported failed and that does not show is no finding; one that shows is named. */
    @Test
    void aRejectedWriteThatShowsIsNamed() {
        byte[] csv = "op,k,v\n,a,1\n,b,2\n,a,3\n".getBytes(StandardCharsets.UTF_8);
        try (Workload w = Workload.open(Workload.Target.PAIMON, DDL, csv);
                Workload failed = w.outcomes(new int[0], new int[] {2})) {
            try (Workload.Reads reads = failed.reads()) {
                Workload.ReadBuffer lake = reads.open("lake", Workload.Source.SNAPSHOT);
                lake.add((byte) 0, new String[] {"a", "1"});
                lake.add((byte) 0, new String[] {"b", "2"});
                assertThat(reads.judge().consistent()).isTrue();
            }
            try (Workload.Reads reads = failed.reads()) {
                Workload.ReadBuffer lake = reads.open("lake", Workload.Source.SNAPSHOT);
                lake.add((byte) 0, new String[] {"a", "3"});
                lake.add((byte) 0, new String[] {"b", "2"});
                Verdict v = reads.judge();
                assertThat(v.consistent()).isFalse();
                assertThat(v.uncertain().rejectedApplied()).containsExactly(3);
                assertThat(v.failures()).singleElement().asString().startsWith("operation 3 took effect, though the"
                        + " client reported its write failed");
            }
        }
    }

    @Test
    void shrinkCandidatesAreSmallerWorkloadsOfTheSameTable() {
        byte[] csv = "k,v\na,x\nb,y\n".getBytes(StandardCharsets.UTF_8);
        try (Workload w = Workload.open(Workload.Target.PAIMON, DDL, csv);
                Workload first = w.shrinkCandidate(0);
                Workload second = w.shrinkCandidate(1)) {
            // A smaller table first (the value column v dropped, the same operations), then smaller workloads.
            assertThat(first.operations()).isEqualTo(2);
            assertThat(first.table().sql()).contains("`k`").doesNotContain("`v`");
            assertThat(second.operations()).isEqualTo(1);
            assertThat(second.workloadCsv()).isEqualTo("op,\"k\",\"v\"\nupsert,\"b\",\"y\"\n");
            int n = 0;
            Workload c;
            while ((c = w.shrinkCandidate(n)) != null) {
                c.close();
                n++;
            }
            assertThat(n).isBetween(3, 10);
        }
    }

    @Test
    void aClosedReadOrWorkloadRefusesUse() {
        Workload w = workload(1);
        Workload.ReadBuffer r = w.newRead("batch", Workload.Source.SNAPSHOT);
        r.close();
        r.close();
        assertThatThrownBy(() -> w.judge(java.util.List.of(r))).hasMessageContaining("closed");
        w.close();
        assertThatThrownBy(() -> w.newRead("x", Workload.Source.SNAPSHOT)).hasMessageContaining("closed");
    }

    @Test
    void aGeneratedWorkloadsPartitionsAreAHandfulUnlessAskedForMore() {
        String ddl = "CREATE TABLE p (region STRING, id INT, v INT, PRIMARY KEY (region, id) NOT ENFORCED)"
                + " PARTITIONED BY (region)";
        try (Workload handful = Workload.generate(Workload.Target.PAIMON, ddl, 2000, 300, 5, true);
                Workload asDrawn = Workload.generate(Workload.Target.PAIMON, ddl, 2000, 300, 5, true, 0);
                Workload two = Workload.generate(Workload.Target.FLUSS, ddl, 2000, 300, 5, true, 2)) {
            assertThat(regions(handful)).hasSize(Workload.PARTITION_VALUES);
            assertThat(regions(asDrawn)).hasSizeGreaterThan(50);
            assertThat(regions(two)).hasSize(2);
        }
        assertThatThrownBy(() -> Workload.generate(Workload.Target.PAIMON, ddl, 10, 3, 1, true, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--partition-values -1");
    }

    private static java.util.Set<String> regions(Workload w) {
        java.util.Set<String> regions = new java.util.HashSet<>();
        w.operations(0, w.operations()).forEach(op -> regions.add(op.cells()[0]));
        return regions;
    }
}
