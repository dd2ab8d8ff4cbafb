package dev.tierproof.cli;

import static dev.tierproof.cli.MainTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.cli.MainTest.Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reproducer directory that search writes runs again with {@code --replay DIR}, with the same
 * verdict; a directory that is not one is refused naming what is wrong, before anything starts.
 */
class ReplayTest {
    @TempDir
    Path dir;

    /** The negative control (an append table judged as its keyed twin) found, written, and replayed. */
    @Test
    void aReproducerSearchWroteReplaysToTheSameVerdict() throws Exception {
        Path keyed = dir.resolve("keyed.sql");
        Files.writeString(keyed, "CREATE TABLE t (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED)");
        Path out = dir.resolve("repro");
        Outcome search = run("search", "--spec", "k: INT, v: INT", "--judge-as", keyed.toString(), "--trials", "1",
                "--ops-per-trial", "4", "--keys", "2", "--out", out.toString());
        assertThat(search.status()).as(search.out() + search.err()).isEqualTo(Main.INCONSISTENT);
        assertThat(search.out()).contains("reproduce: ./build.sh run prove --replay " + out);
        assertThat(out.resolve(Replay.TABLE)).content().contains("CREATE TABLE");
        assertThat(out.resolve(Replay.JUDGE_AS)).content().contains("PRIMARY KEY (k)");
        assertThat(out.resolve(Replay.OPTIONS)).content().contains("command=prove").contains("rounds=1");
        assertThat(out.resolve("README.md")).content().contains("./build.sh run prove --replay " + out)
                .contains("INCONSISTENT").contains("Versions: ");

        Outcome replay = run("prove", "--replay", out.toString());
        assertThat(replay.status()).as(replay.out() + replay.err()).isEqualTo(Main.INCONSISTENT);
        assertThat(replay.out()).contains("verdict          : INCONSISTENT");

        Outcome wrongCommand = run("streamhouse", "--replay", out.toString());
        assertThat(wrongCommand.status()).isEqualTo(Main.FAILED);
        assertThat(wrongCommand.err()).contains("this reproducer is for prove, not streamhouse");
        Outcome withTable = run("prove", "--replay", out.toString(), "--spec", "k: INT");
        assertThat(withTable.err()).contains("--replay DIR names the table and the workload");
    }

    @Test
    void whatIsNotAReproducerIsRefusedNamingWhy() throws Exception {
        assertThat(run("prove", "--replay", dir.resolve("none").toString()).err())
                .contains("--replay " + dir.resolve("none") + " is not a directory");
        Files.writeString(dir.resolve(Replay.TABLE), "CREATE TABLE t (k INT, v INT)");
        assertThat(run("prove", "--replay", dir.toString()).err()).contains("has no " + Replay.WORKLOAD);
        Files.writeString(dir.resolve(Replay.WORKLOAD), "k,v\n1,2\n");
        Files.writeString(dir.resolve(Replay.OPTIONS), "command=prove\nround=2\n");
        Outcome unknown = run("prove", "--replay", dir.toString());
        assertThat(unknown.status()).isEqualTo(Main.FAILED);
        assertThat(unknown.err()).contains(Replay.OPTIONS + ": unknown key round");
        Files.writeString(dir.resolve(Replay.OPTIONS), "command=streamhouse\nrounds=x\n");
        assertThat(run("streamhouse", "--replay", dir.toString()).err()).contains("rounds x is not a number");
        Files.writeString(dir.resolve(Replay.OPTIONS), "command=streamhouse\nrounds=1\nfaults=explode@1\n");
        assertThat(run("streamhouse", "--replay", dir.toString()).err()).contains("--faults explode@1 is not KIND@N")
                .doesNotContain("starting Fluss");
        Files.writeString(dir.resolve(Replay.OPTIONS),
                "command=streamhouse\nproducer-options=client.writer.retries=many\n");
        assertThat(run("streamhouse", "--replay", dir.toString()).err())
                .contains("--producer-option client.writer.retries=many: ").doesNotContain("starting Fluss");
    }
}
