package dev.tierproof.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tierproof.run.RunDirectory;
import dev.tierproof.support.CliProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stopped by SIGINT or SIGTERM says what it was doing, leaves a report that says so, and
 * leaves nothing behind: not in its temporary directory (Flink's and Fluss's files included), not
 * in the user's warehouse. A run killed with SIGKILL cannot clean up; the next run does.
 */
class InterruptionTest {
    @TempDir
    Path dir;

    static List<String> leftovers(Path tmp) throws Exception {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString()).toList();
        }
    }

    void interruptedDuring(String signal, int expectedStatus, String command, String... more) throws Exception {
        Path tmp = dir.resolve(signal + "-tmp");
        Path report = dir.resolve(signal + "-report.json");
        Path wh = dir.resolve(signal + "-wh");
        String[] args = Stream.concat(Stream.of(command, "--random", "200", "--rows-per-insert", "1", "--report",
                report.toString(), "--warehouse", wh.toString()), Stream.of(more)).toArray(String[]::new);
        CliProcess p = CliProcess.start(tmp, dir.resolve("logs"), args);
        assertTrue(p.awaitErr("statements done", Duration.ofSeconds(120)), p.err());
        p.signal(signal);
        assertEquals(expectedStatus, p.exitStatus(Duration.ofSeconds(90)), p.err());
        assertTrue(p.err().contains("tierproof: interrupted during INSERT "), p.err());
        assertTrue(Files.isRegularFile(report), "no report at " + report + "; the run said:\n" + p.err());
        JsonNode r = new ObjectMapper().readTree(report.toFile());
        assertEquals("interrupted", r.path("status").asText(), r.toString());
        assertTrue(r.path("step").asText().startsWith("INSERT "), r.toString());
        assertEquals(List.of(), leftovers(tmp), "nothing left in the temporary directory");
        // The half-written table (and the database the run made) are gone from the user's warehouse.
        assertTrue(p.err().matches("(?s).*removed (lake )?table .* \\(created by this run\\).*"), p.err());
        assertFalse(Files.exists(wh), "the warehouse directory the run made is gone with what it held");
    }

    @Test
    void sigtermDuringProveCleansUpAndExits143() throws Exception {
        interruptedDuring("TERM", 143, "prove");
    }

    @Test
    void sigintDuringStreamhouseCleansUpAndExits130() throws Exception {
        interruptedDuring("INT", 130, "streamhouse", "--producer", "sql");
    }

    @Test
    void aRunKilledWithSigkillIsCleanedUpByTheNextRun() throws Exception {
        Path tmp = dir.resolve("kill-tmp");
        CliProcess p = CliProcess.start(tmp, dir.resolve("logs"), "prove", "--random", "200", "--rows-per-insert", "1");
        assertTrue(p.awaitErr("statements done", Duration.ofSeconds(120)), p.err());
        p.signal("KILL");
        p.exitStatus(Duration.ofSeconds(30));
        List<String> left = leftovers(tmp);
        assertEquals(1, left.size(), left.toString());
        assertTrue(left.get(0).startsWith("tierproof-run-" + p.pid() + "-"), left.toString());
        CliProcess next = CliProcess.start(tmp, dir.resolve("logs"), "ddl");
        assertEquals(0, next.exitStatus(Duration.ofSeconds(60)), next.err());
        assertEquals(List.of(), leftovers(tmp), "the next run removed the dead run's directory, and its own");
        // A live run's directory is never swept.
        try (RunDirectory live = RunDirectory.create(tmp)) {
            assertEquals(List.of(), RunDirectory.sweepStale(tmp));
            assertTrue(Files.isDirectory(live.root()));
        }
        assertFalse(Files.exists(tmp.resolve(left.get(0))));
    }
}
