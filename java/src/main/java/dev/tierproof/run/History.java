package dev.tierproof.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A run's history in a directory of its own ({@code --history DIR}), enough to judge it again with
 * no servers ({@code tierproof check DIR}): the table, the workload, the writes whose outcome is
 * unknown, what failed besides, the faults, and each final read's changes exactly as they crossed
 * to the core (chunks of its wire encoding, in {@value #READS}/), in judging order.
 * {@value #MANIFEST} says which is which, and the run's verdict.
 */
public final class History {
    public static final String MANIFEST = "history.json";
    public static final String TABLE = "table.sql";
    public static final String WORKLOAD = "workload.csv";
    public static final String READS = "reads";
    /** Past this many bytes of changes in all, a read keeps only their digest: a history's disk is bounded. */
    static final long KEPT_BYTES = 1L << 30;

    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;
    private final ObjectNode manifest = JSON.createObjectNode();
    private final ArrayNode reads = JSON.createArrayNode();
    private final AtomicLong kept = new AtomicLong();
    private final List<ReadLog> logs = new java.util.ArrayList<>();
    private final long keptLimit;

    private History(Path dir, long keptLimit) {
        this.dir = dir;
        this.keptLimit = keptLimit;
    }

    /**
     * Refuses {@code dir} unless it is missing or an empty directory, naming it: called before the
     * run makes anything.
     */
    public static void check(Path dir) {
        if (Files.exists(dir) && !(Files.isDirectory(dir) && isEmpty(dir))) {
            throw new IllegalArgumentException("--history " + dir + " is not an empty directory: a history is written"
                    + " into one of its own, and nothing there is overwritten");
        }
    }

    private static boolean isEmpty(Path dir) {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    /** A new history in {@code dir} (missing or empty), of a run of {@code command} on a table of {@code target}. */
    public static History create(Path dir, String command, Workload.Target target) {
        return create(dir, command, target, KEPT_BYTES);
    }

    /** As {@link #create(Path, String, Workload.Target)}, keeping at most {@code keptLimit} bytes of changes. */
    public static History create(Path dir, String command, Workload.Target target, long keptLimit) {
        check(dir);
        try {
            Files.createDirectories(dir.resolve(READS));
        } catch (IOException e) {
            throw new TierproofException("--history " + dir + " cannot be made: " + IoMessages.of(e), e);
        }
        History h = new History(dir, keptLimit);
        h.manifest.put("command", command);
        h.manifest.put("target", target.name().toLowerCase(java.util.Locale.ROOT));
        h.manifest.put("table", TABLE);
        h.manifest.put("workload", WORKLOAD);
        h.manifest.set("reads", h.reads);
        return h;
    }

    public Path directory() {
        return dir;
    }

    /** The table's DDL and the workload as CSV (the files {@code --replay} reads too). */
    public void workload(String ddl, String csv) {
        write(TABLE, ddl.endsWith("\n") ? ddl : ddl + "\n");
        write(WORKLOAD, csv);
    }

    /** Keeps each read's changes as they cross to the core, in the order the reads open. */
    public Workload.Taps taps() {
        return (name, source, view) -> {
            String file = READS + "/" + String.format("%02d-%s.bin", reads.size() + 1, name.replaceAll("[^A-Za-z0-9_]", "_"));
            ObjectNode read = reads.addObject();
            read.put("name", name);
            read.put("source", source.name().toLowerCase(java.util.Locale.ROOT));
            read.put("view", view);
            read.put("file", file);
            ReadLog log = new ReadLog(dir.resolve(file), read);
            synchronized (logs) {
                logs.add(log);
            }
            return log;
        };
    }

    /**
     * Keeps when each fault held and what the replication watch saw (each change of leader and
     * ISR): the metadata side of the history, for people; {@code check} judges the reads alone.
     */
    public void metadata(List<dev.tierproof.report.FaultBand> bands, List<String> replication) {
        ArrayNode held = manifest.putArray("fault_bands");
        bands.forEach(b -> held.addObject().put("fault", b.fault()).put("from_ms", b.fromMillis())
                .put("to_ms", b.toMillis()));
        replication.forEach(manifest.putArray("replication")::add);
    }

    /**
     * What the run came to: the writes whose acknowledgement was lost and those the client
     * reported failed (0-based positions), what failed besides the reads' rows, the faults as they
     * struck, and whether the verdict held.
     */
    public void finish(int[] unknown, int[] rejected, List<String> failures, List<String> faults, boolean consistent,
            String word) {
        java.util.Arrays.stream(unknown).forEach(manifest.putArray("unknown_outcome")::add);
        java.util.Arrays.stream(rejected).forEach(manifest.putArray("rejected")::add);
        failures.forEach(manifest.putArray("failures")::add);
        faults.forEach(manifest.putArray("faults")::add);
        synchronized (logs) {
            logs.forEach(ReadLog::close);
        }
        ObjectNode verdict = manifest.putObject("verdict");
        verdict.put("consistent", consistent);
        verdict.put("word", word);
        synchronized (reads) {
            write(MANIFEST, manifest.toPrettyString() + "\n");
        }
    }

    private void write(String name, String text) {
        try {
            Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new TierproofException("--history " + dir + ": " + name + " cannot be written: " + IoMessages.of(e), e);
        }
    }

    /**
     * One read's changes: each chunk as its length (4 bytes, big-endian) and its bytes, while the
     * history keeps bytes; then only their count and SHA-256, which say the read went on.
     */
    private final class ReadLog implements Workload.ChangeTap {
        private final Path file;
        private final ObjectNode read;
        private final MessageDigest digest;
        private DataOutputStream out;
        private long bytes;
        private boolean whole = true;

        ReadLog(Path file, ObjectNode read) {
            this.file = file;
            this.read = read;
            try {
                this.digest = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
            record();
        }

        @Override
        public synchronized void chunk(byte[] encoded, int length) {
            digest.update(encoded, 0, length);
            bytes += length;
            if (whole && kept.addAndGet(length) <= keptLimit) {
                try {
                    if (out == null) {
                        OutputStream stream = Files.newOutputStream(file);
                        out = new DataOutputStream(new java.io.BufferedOutputStream(stream, 1 << 16));
                    }
                    out.writeInt(length);
                    out.write(encoded, 0, length);
                    out.flush();
                } catch (IOException e) {
                    throw new TierproofException("--history " + dir + ": " + file.getFileName() + " cannot be written: "
                            + IoMessages.of(e), e);
                }
            } else {
                whole = false;
            }
            record();
        }

        synchronized void close() {
            if (out != null) {
                try {
                    out.close();
                } catch (IOException e) {
                    throw new TierproofException("--history " + dir + ": " + file.getFileName() + " cannot be written: "
                            + IoMessages.of(e), e);
                }
            }
        }

        /** What the manifest says of this read so far. */
        private void record() {
            synchronized (reads) {
                read.put("bytes", bytes);
                read.put("whole", whole);
                read.put("sha256", HexFormat.of().formatHex(((MessageDigest) cloned()).digest()));
            }
        }

        private Object cloned() {
            try {
                return digest.clone();
            } catch (CloneNotSupportedException e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
