package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.cli.MainTest.Outcome;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.run.History;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A history judged again with no servers: {@code tierproof check DIR} reaches the verdict the run
 * reached from the same changes, and judges what was changed in it as the core would.
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class CheckCommandTest {
    private static final String DDL = "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '1')";
    /** The third write's acknowledgement was lost; the read shows it did not apply. */
    private static final String CSV = "k,v\n1,1\n2,2\n1,3\n";

    @TempDir
    Path tmp;

    /** A run's history as streamhouse --history keeps it: two reads, the first write of unknown outcome left out. */
    private Path history(String name, int[] unknown, long keep) throws Exception {
        Path dir = tmp.resolve(name);
        History h = History.create(dir, "streamhouse", Workload.Target.FLUSS, keep);
        h.workload(DDL, CSV);
        byte[] csv = CSV.getBytes(StandardCharsets.UTF_8);
        try (Workload w = Workload.open(Workload.Target.FLUSS, DDL, csv); Workload judged = w.uncertain(unknown);
                Workload.Reads reads = judged.reads()) {
            reads.tap(h.taps());
            for (String read : List.of("paimon_batch", "fluss_union")) {
                Workload.ReadBuffer b = reads.open(read, Workload.Source.SNAPSHOT);
                b.add((byte) 0, new String[] {"1", "1"});
                b.add((byte) 0, new String[] {"2", "2"});
            }
            Verdict v = reads.judge(List.of());
            h.finish(unknown, new int[0], List.of(), List.of("kill-leader@3 (tablet server 1, 5 ms)"), v.consistent(),
                    v.consistent() ? "CONSISTENT" : "INCONSISTENT");
        }
        return dir;
    }

    @Test
    void aHistoryIsJudgedAgainAsTheRunJudgedIt() throws Exception {
        Path dir = history("lost", new int[] {2}, Long.MAX_VALUE);
        Outcome again = run("check", dir.toString());
        assertThat(again.status()).as(again.out() + again.err()).isEqualTo(Main.CONSISTENT);
        assertThat(again.out()).contains("recorded verdict : CONSISTENT", "fault            : kill-leader@3",
                "paimon_batch", "fluss_union", "verdict          : CONSISTENT").doesNotContain("differs from the recorded")
                .containsPattern("time             : \\d+ ms in all");
        assertThat(Files.readString(dir.resolve(History.MANIFEST))).contains("\"unknown_outcome\" : [ 2 ]");
    }

    /** The same changes with every write's outcome known: the lost write is missing, and check says the verdict moved. */
    @Test
    void whatWasChangedInAHistoryIsJudgedAsTheCoreWould() throws Exception {
        Path dir = history("edited", new int[] {2}, Long.MAX_VALUE);
        Path manifest = dir.resolve(History.MANIFEST);
        Files.writeString(manifest, Files.readString(manifest).replace("\"unknown_outcome\" : [ 2 ]",
                "\"unknown_outcome\" : [ ]"));
        Outcome again = run("check", dir.toString());
        assertThat(again.status()).as(again.out() + again.err()).isEqualTo(Main.INCONSISTENT);
        assertThat(again.out()).contains("judged again, the verdict differs from the recorded one");
    }

    /** Past what a history keeps, a read keeps its digest only, and check says it left it out. */
    @Test
    void aReadKeptAsADigestIsNotJudgedAgain() throws Exception {
        Path dir = history("digest", new int[] {2}, 0);
        Outcome again = run("check", dir.toString());
        assertThat(again.out()).contains("paimon_batch     : not judged again: the history kept only its digest");
    }

    @Test
    void notAHistoryIsRefusedNamingIt() throws Exception {
        Outcome none = run("check", tmp.toString());
        assertThat(none.status()).isEqualTo(Main.FAILED);
        assertThat(none.err()).contains("check " + tmp + " has no history.json");
        Path dir = history("escape", new int[] {2}, Long.MAX_VALUE);
        Path manifest = dir.resolve(History.MANIFEST);
        Files.writeString(manifest, Files.readString(manifest).replace("\"table.sql\"", "\"../../etc/passwd\""));
        Outcome escape = run("check", dir.toString());
        assertThat(escape.status()).isEqualTo(Main.FAILED);
        assertThat(escape.err()).contains("its table file ../../etc/passwd is not a file in it");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> History.check(dir))
                .hasMessageContaining("--history " + dir + " is not an empty directory");
    }
}
