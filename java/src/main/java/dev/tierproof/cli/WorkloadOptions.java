package dev.tierproof.cli;

import dev.tierproof.core.GeneralWorkload;
import dev.tierproof.core.Rows;
import dev.tierproof.core.Workloads;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Where a command's upserts come from: a CSV file, a seeded random workload, or the example. */
final class WorkloadOptions {
    /** The exercise's kind of workload: a dozen upserts, ids repeated, a NULL balance. */
    static final String EXAMPLE_CSV =
            "id,bal\n1,100\n2,200\n3,300\n1,150\n2,\n4,400\n3,-50\n1,175\n5,500\n4,410\n2,250\n5,\n";

    @Option(names = "--upserts", paramLabel = "FILE",
            description = "CSV with the header id,bal, one upsert a line in order; an empty bal (or NULL) is NULL."
                    + " For a --ddl-file table of another shape: a CSV whose header names its columns (and"
                    + " optionally op: upsert or delete), or JSON Lines, one object a line")
    Path upserts;

    @Option(names = "--random", paramLabel = "N", description = "N seeded random upserts (1 to 10,000,000) instead")
    Integer random;

    @Option(names = "--keys", paramLabel = "K", description = "with --random: distinct ids (default N/4)")
    Integer keys;

    @Option(names = "--seed", paramLabel = "S", description = "with --random: the seed (default 1)")
    Long seed;

    /** The workload these options name, or {@code fallback} (CSV text) when they name none. */
    Rows load(String fallbackCsv) {
        return load(() -> Workloads.parseCsv(fallbackCsv));
    }

    /** The workload these options name, or {@code fallback}'s when they name none. */
    Rows load(java.util.function.Supplier<Rows> fallback) {
        if (upserts != null && random != null) {
            throw new IllegalArgumentException("give --upserts FILE or --random N, not both");
        }
        if (random == null && (keys != null || seed != null)) {
            throw new IllegalArgumentException((keys != null ? "--keys" : "--seed") + " needs --random N: it shapes"
                    + " a random workload and means nothing for " + (upserts != null ? "--upserts" : "the example"));
        }
        if (upserts != null) {
            try {
                return Workloads.parseCsv(InputFiles.read(upserts, "--upserts"));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(upserts + ": " + e.getMessage(), e);
            }
        }
        if (random != null) {
            if (random < 1 || random > 10_000_000) {
                throw new IllegalArgumentException("--random " + random + " must be between 1 and 10000000"
                        + " (a proof of nothing would say nothing)");
            }
            int k = keys != null ? keys : Math.max(1, random / 4);
            if (k < 1) {
                throw new IllegalArgumentException("--keys " + k + " must be at least 1");
            }
            return Workloads.random(random, k, seed != null ? seed : 1);
        }
        return fallback.get();
    }

    /** A workload for a table of any shape, and where it came from. */
    record Opened(GeneralWorkload workload, String source) {}

    /**
     * The workload of a table of any shape: a CSV whose header names its columns (and optionally
     * {@code op}), or a seeded random one. The DDL and every operation are checked here, before
     * anything starts; errors name {@code source} (the DDL file, or --spec).
     */
    Opened open(GeneralWorkload.Target target, String ddl, String source) {
        if (upserts != null && random != null) {
            throw new IllegalArgumentException("give --upserts FILE or --random N, not both");
        }
        try {
            if (upserts != null) {
                if (keys != null || seed != null) {
                    throw new IllegalArgumentException("--keys and --seed shape a random workload; give --upserts"
                            + " only");
                }
                return new Opened(GeneralWorkload.open(target, ddl, InputFiles.read(upserts, "--upserts")),
                        "the workload " + upserts);
            }
            if (random != null) {
                int n = random;
                int k = keys != null ? keys : Math.max(1, n / 4);
                long s = seed != null ? seed : 1;
                GeneralWorkload generated = GeneralWorkload.generate(target, ddl, n, k, s);
                String noDeletes = generated.deletesRefused();
                return new Opened(generated, n + " random operations over " + k + " keys, seed " + s
                        + (noDeletes == null ? "" : " (no deletes: " + noDeletes + ")"));
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(source + " is not the (id INT, bal INT) table:"
                + " give its workload as --upserts FILE.csv whose header names its columns (and optionally"
                + " op: upsert or delete), or --random N");
    }

    boolean given() {
        return upserts != null || random != null;
    }

    String describe(Rows loaded, String fallback) {
        if (upserts != null) {
            return loaded.size() + " upserts from " + upserts;
        }
        if (random != null) {
            return loaded.size() + " random upserts over " + (keys != null ? keys : "n/4") + " keys, seed "
                    + (seed != null ? seed : 1);
        }
        return fallback;
    }

    /** The files these options read (a report may not overwrite them). */
    List<Path> inputs() {
        List<Path> in = new ArrayList<>();
        if (upserts != null) {
            in.add(upserts);
        }
        return in;
    }
}
