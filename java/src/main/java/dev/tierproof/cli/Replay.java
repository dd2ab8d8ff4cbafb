package dev.tierproof.cli;

import dev.tierproof.run.IoMessages;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;

/**
 * A reproducer directory, as {@code search} writes it: the table ({@value #TABLE}), the workload
 * ({@value #WORKLOAD}), the table it was judged as ({@value #JUDGE_AS}, if any), and what else the
 * failing run had ({@value #OPTIONS}: its command, rounds and faults). {@code --replay DIR} runs
 * exactly that again.
 */
record Replay(String command, Path table, Path workload, Path judgeAs, int rounds, String faults,
        String producerOptions, int tabletServers, Integer tieringCheckpoints, int writers) {
    static final String TABLE = "table.sql";
    static final String WORKLOAD = "workload.csv";
    static final String JUDGE_AS = "judge-as.sql";
    static final String OPTIONS = "replay.properties";
    private static final Set<String> KEYS = Set.of("command", "rounds", "faults", "producer-options", "tablet-servers",
            "tiering-checkpoints", "writers");

    /** The reproducer in {@code dir}; bad input names the directory, the file and the value. */
    static Replay read(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--replay " + dir + " is not a directory (a reproducer that search"
                    + " wrote: " + TABLE + ", " + WORKLOAD + ", " + OPTIONS + ")");
        }
        for (String name : new String[] {TABLE, WORKLOAD, OPTIONS}) {
            if (!Files.isRegularFile(dir.resolve(name))) {
                throw new IllegalArgumentException("--replay " + dir + " has no " + name);
            }
        }
        Properties p = new Properties();
        Path options = dir.resolve(OPTIONS);
        try (Reader in = Files.newBufferedReader(options, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException | IllegalArgumentException e) {
            String why = e instanceof IOException io ? IoMessages.of(io) : e.getMessage();
            throw new IllegalArgumentException("--replay " + options + " cannot be read: " + why, e);
        }
        for (String key : p.stringPropertyNames()) {
            if (!KEYS.contains(key)) {
                throw new IllegalArgumentException("--replay " + options + ": unknown key " + key + " (known: "
                        + KEYS + ")");
            }
        }
        String command = p.getProperty("command", "");
        if (!command.equals("prove") && !command.equals("streamhouse")) {
            throw new IllegalArgumentException("--replay " + options + ": command " + command + " is not prove or"
                    + " streamhouse");
        }
        int rounds = number(p, "rounds", options);
        int tabletServers = number(p, "tablet-servers", options);
        Path judgeAs = dir.resolve(JUDGE_AS);
        return new Replay(command, dir.resolve(TABLE), dir.resolve(WORKLOAD),
                Files.isRegularFile(judgeAs) ? judgeAs : null, rounds, p.getProperty("faults", "").trim(),
                p.getProperty("producer-options", "").trim(), tabletServers,
                p.getProperty("tiering-checkpoints") == null ? null : number(p, "tiering-checkpoints", options),
                number(p, "writers", options));
    }

    /** A count the reproducer names, 1 when it names none. */
    private static int number(Properties p, String key, Path options) {
        try {
            return Integer.parseInt(p.getProperty(key, "1").trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--replay " + options + ": " + key + " " + p.getProperty(key)
                    + " is not a number", e);
        }
    }

    /**
     * The text of {@value #OPTIONS} for a run of {@code command} in {@code rounds} with
     * {@code faults} and the producer's options ({@code KEY=VALUE,…}, empty for the defaults).
     */
    static String options(String command, int rounds, String faults, String producerOptions) {
        return options(command, rounds, faults, producerOptions, 1, null, 1);
    }

    /**
     * As {@link #options(String, int, String, String)}, on an embedded cluster of {@code tabletServers}
     * with the tiering job checkpointed every {@code tieringCheckpoints} seconds (null: none), written
     * by {@code writers} Fluss clients at once.
     */
    static String options(String command, int rounds, String faults, String producerOptions, int tabletServers,
            Integer tieringCheckpoints, int writers) {
        return "# what the failing run had besides its table and workload (tierproof --replay reads it)\n"
                + "command=" + command + "\nrounds=" + rounds + "\nfaults=" + faults + "\nproducer-options="
                + producerOptions + "\n" + (tabletServers == 1 ? "" : "tablet-servers=" + tabletServers + "\n")
                + (tieringCheckpoints == null ? "" : "tiering-checkpoints=" + tieringCheckpoints + "\n")
                + (writers == 1 ? "" : "writers=" + writers + "\n");
    }

    /**
     * Sets the table and workload options to the reproducer's files; refuses a table or a
     * workload given alongside it.
     */
    void applyTo(TableOptions tableOptions, WorkloadOptions workloadOptions) {
        if (tableOptions.given() || workloadOptions.upserts != null || workloadOptions.random != null) {
            throw new IllegalArgumentException("--replay DIR names the table and the workload: give no --ddl-file,"
                    + " --spec, --upserts or --random with it");
        }
        tableOptions.ddlFile = table;
        workloadOptions.upserts = workload;
    }

    /** Refuses {@code --replay} for a command it was not written for. */
    Replay checkFor(String running) {
        if (!command.equals(running)) {
            throw new IllegalArgumentException("--replay: this reproducer is for " + command + ", not " + running
                    + ": run ./build.sh run " + command + " --replay DIR");
        }
        return this;
    }
}
