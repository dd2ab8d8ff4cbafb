package dev.tierproof.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tierproof.core.Workload;
import dev.tierproof.core.verdict.Verdict;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.History;
import dev.tierproof.run.IoMessages;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code tierproof check DIR}: a history a run kept ({@code streamhouse --history DIR}) judged again
 * by the core, with no servers: the same workload, the same writes of unknown outcome, each read's
 * changes as they crossed to the core then, in the same order.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Judge a run's history (streamhouse --history DIR) again, with no servers: its workload, its"
                + " writes of unknown outcome and every read's changes as the run read them.")
final class CheckCommand extends TierproofCommand {
    @Parameters(paramLabel = "DIR", description = "the history's directory")
    Path dir;

    @Override
    public Integer call() throws Exception {
        long started = System.nanoTime();
        JsonNode manifest = manifest();
        Workload.Target target = target(manifest);
        String ddl = Files.readString(file(manifest, "table"), StandardCharsets.UTF_8);
        byte[] csv = Files.readAllBytes(file(manifest, "workload"));
        int[] unknown = positions(manifest.path("unknown_outcome"));
        int[] rejected = positions(manifest.path("rejected"));
        List<String> failures = texts(manifest.path("failures"));
        List<String> details = new ArrayList<>();
        details.add("history          : " + dir + " (" + manifest.path("command").asText() + " on "
                + target.name().toLowerCase(Locale.ROOT) + ")");
        details.add("recorded verdict : " + manifest.path("verdict").path("word").asText("?"));
        texts(manifest.path("faults")).forEach(f -> details.add("fault            : " + f));
        try (Workload written = Workload.open(target, ddl, csv);
                Workload judged = unknown.length + rejected.length == 0 ? null : written.outcomes(unknown, rejected);
                Workload.Reads reads = (judged != null ? judged : written).reads()) {
            for (JsonNode read : manifest.path("reads")) {
                replay(read, reads, details);
            }
            long judging = System.nanoTime();
            Verdict verdict = reads.judge(failures);
            Map<String, Long> timings = new java.util.LinkedHashMap<>();
            timings.put("judge", dev.tierproof.flink.Statements.millisSince(judging));
            timings.put("total", dev.tierproof.flink.Statements.millisSince(started));
            if (verdict.consistent() != manifest.path("verdict").path("consistent").asBoolean(!verdict.consistent())) {
                details.add("NOTE             : judged again, the verdict differs from the recorded one");
            }
            ProofReport report = new ProofReport(dev.tierproof.report.Report.newObject(), verdict, ddl, details,
                    timings);
            return ReportOutput.print(main.out, main.err, report, null, "DDL");
        }
    }

    /** One read's changes, chunk by chunk as the run sent them to the core; a read kept as a digest only is left out. */
    private void replay(JsonNode read, Workload.Reads reads, List<String> details) throws IOException {
        String name = read.path("name").asText();
        if (!read.path("whole").asBoolean(false)) {
            details.add(String.format("%-17s: not judged again: the history kept only its digest (%s bytes, sha256 %s)",
                    name, read.path("bytes").asText(), read.path("sha256").asText()));
            return;
        }
        int view = read.path("view").asInt(-1);
        Workload.ReadBuffer buffer = view >= 0 ? reads.openView(view, name)
                : reads.open(name, Workload.Source.valueOf(read.path("source").asText().toUpperCase(Locale.ROOT)));
        Path changes = dir.resolve(read.path("file").asText()).normalize();
        if (!changes.startsWith(dir.normalize())) {
            throw new IllegalArgumentException("check " + dir + ": read " + name + "'s file " + read.path("file").asText()
                    + " is not in it");
        }
        if (!Files.exists(changes)) {
            return; // a read that returned nothing
        }
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(changes)))) {
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException end) {
                    return;
                }
                byte[] chunk = in.readNBytes(length);
                if (chunk.length != length) {
                    throw new IllegalArgumentException("check " + changes + " ends inside a chunk: the history is cut off");
                }
                buffer.addEncoded(chunk);
            }
        }
    }

    private JsonNode manifest() {
        Path file = dir.resolve(History.MANIFEST);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("check " + dir + " has no " + History.MANIFEST + ": not a history that"
                    + " streamhouse --history wrote (or its run did not finish)");
        }
        try {
            return new ObjectMapper().readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException("check " + file + " cannot be read: " + IoMessages.of(e), e);
        }
    }

    private static Workload.Target target(JsonNode manifest) {
        String text = manifest.path("target").asText();
        for (Workload.Target t : Workload.Target.values()) {
            if (t.name().equalsIgnoreCase(text)) {
                return t;
            }
        }
        throw new IllegalArgumentException("check: the history's target " + text + " is not one of "
                + java.util.Arrays.toString(Workload.Target.values()).toLowerCase(Locale.ROOT));
    }

    /** A file the manifest names, inside the history's directory. */
    private Path file(JsonNode manifest, String key) {
        String name = manifest.path(key).asText();
        Path file = dir.resolve(name).normalize();
        if (name.isEmpty() || !file.startsWith(dir.normalize()) || !Files.isRegularFile(file)) {
            throw new IllegalArgumentException("check " + dir + ": its " + key + " file " + name + " is not a file in it");
        }
        return file;
    }

    private static int[] positions(JsonNode array) {
        int[] out = new int[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asInt();
        }
        return out;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
