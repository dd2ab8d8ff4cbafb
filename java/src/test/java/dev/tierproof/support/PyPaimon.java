package dev.tierproof.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A reader that is neither Flink nor tierproof's Java code: Apache Paimon's Python reader
 * ({@code pypaimon}, installed by .ci/run), through {@code tests/python/read_paimon.py}.
 */
public final class PyPaimon {
    private PyPaimon() {}

    /** The table's rows as pypaimon reads them: {@code {"columns": [...], "rows": [[id, bal], ...]}}. */
    public static JsonNode read(Path warehouse, String table) throws Exception {
        Path script = Path.of("..", "tests", "python", "read_paimon.py").toAbsolutePath().normalize();
        Process p = new ProcessBuilder("python3", script.toString(), warehouse.toString(), table)
                .redirectErrorStream(true).start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("pypaimon did not read " + table + " within 120 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError("pypaimon could not read " + table + " (pip install pypaimon): " + out);
        }
        return new ObjectMapper().readTree(out.lines().reduce((a, b) -> b).orElse("{}"));
    }
}
