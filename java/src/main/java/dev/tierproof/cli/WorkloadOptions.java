package dev.tierproof.cli;

import dev.tierproof.core.Workload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** Where a command's workload comes from: a file, a seeded random workload, or the command's default. */
final class WorkloadOptions {
    /** The exercise's kind of workload: a dozen upserts, ids repeated, a NULL balance. */
    static final String EXAMPLE_CSV =
            "id,bal\n1,100\n2,200\n3,300\n1,150\n2,\n4,400\n3,-50\n1,175\n5,500\n4,410\n2,250\n5,\n";

    @Option(names = "--upserts", paramLabel = "FILE",
            description = "the workload, in order: a CSV whose header names the table's columns (id,bal for the"
                    + " default table; an empty field is NULL) and optionally op (upsert or delete), or JSON Lines,"
                    + " one object a line (a left-out column is NULL)")
    Path upserts;

    @Option(names = "--random", paramLabel = "N", description = "N seeded random operations (1 to 10,000,000)"
            + " instead: repeated keys, NULLs, edge values, deletes where the table takes them")
    Integer random;

    @Option(names = "--keys", paramLabel = "K", description = "with --random: distinct keys (default N/4)")
    Integer keys;

    @Option(names = "--seed", paramLabel = "S", description = "with --random: the seed (default 1)")
    Long seed;

    @Option(names = "--partition-values", paramLabel = "P", description = "with --random: the values each"
            + " partition column takes (default 4, a handful of days or regions as users' tables have; 0: as many"
            + " as the keys make, a partition per key or so)")
    Integer partitionValues;

    @Option(names = "--hot-keys", paramLabel = "PERCENT", description = "with --random: about PERCENT %% of the"
            + " operations (0 to 100) on one hot key, as a popular account or a busy sensor has them")
    Integer hotKeys;

    /** {@code generated} with {@code --hot-keys}' share on one key (it closed), or itself without. */
    private Workload hot(Workload generated, long s) {
        if (hotKeys == null) {
            return generated;
        }
        try (generated) {
            return generated.hotKeys(hotKeys, s);
        }
    }

    /** A workload for a table, and where it came from. */
    record Opened(Workload workload, String source) {}

    /** What a command proves when neither {@code --upserts} nor {@code --random} is given. */
    interface Fallback {
        Opened open(Workload.Target target, String ddl);
    }

    /** The exercise's example, for the {@code (id INT, bal INT)} table. */
    static Opened example(Workload.Target target, String ddl) {
        return new Opened(Workload.open(target, ddl, EXAMPLE_CSV.getBytes(StandardCharsets.UTF_8)),
                "12 upserts (the built-in example)");
    }

    /**
     * The workload these options name for the DDL's table: a CSV whose header names its columns
     * (and optionally {@code op}), JSON Lines, or a seeded random one; else {@code fallback}'s
     * (null: there is none). With a {@code promiseDdl} (else null) the reads are judged by that
     * table's promise (the same columns), and a random workload is made for it, without deletes.
     * The DDL and every operation are checked here, before anything starts; an error names where
     * it is: {@code source} (the DDL file, or --spec), {@code promiseSource}, or the workload file.
     */
    Opened open(Workload.Target target, String ddl, String source, String promiseDdl, String promiseSource,
            Fallback fallback) {
        if (upserts != null && random != null) {
            throw new IllegalArgumentException("give --upserts FILE or --random N, not both");
        }
        if (random == null && (keys != null || seed != null || partitionValues != null || hotKeys != null)) {
            throw new IllegalArgumentException((keys != null ? "--keys" : seed != null ? "--seed"
                    : partitionValues != null ? "--partition-values" : "--hot-keys") + " needs --random N: it shapes"
                    + " a random workload and means nothing for " + (upserts != null ? "--upserts" : "the default"));
        }
        checked(source, () -> Workload.checkTable(target, ddl));
        if (promiseDdl != null) {
            checked(promiseSource, () -> Workload.checkTable(target, promiseDdl));
        }
        if (upserts != null) {
            byte[] bytes = InputFiles.read(upserts, "--upserts");
            return named(upserts.toString(), () -> new Opened(promiseDdl == null ? Workload.open(target, ddl, bytes)
                    : Workload.openJudgedAs(target, ddl, promiseDdl, bytes), "the workload " + upserts));
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
            long s = seed != null ? seed : 1;
            if (partitionValues != null && partitionValues < 0) {
                throw new IllegalArgumentException("--partition-values " + partitionValues + " must be at least 0"
                        + " (0: as many as the keys make)");
            }
            if (hotKeys != null && (hotKeys < 0 || hotKeys > 100)) {
                throw new IllegalArgumentException("--hot-keys " + hotKeys + " must be between 0 and 100 (the share"
                        + " of operations on one key, in %)");
            }
            int p = partitionValues != null ? partitionValues : Workload.PARTITION_VALUES;
            String described = random + " random operations over " + k + " keys, seed " + s
                    + (partitionValues == null ? "" : p == 0 ? ", partition values as drawn"
                            : ", at most " + p + " values per partition column")
                    + (hotKeys == null ? "" : ", about " + hotKeys + " % of them on one hot key");
            if (promiseDdl != null) {
                return named(promiseSource, () -> new Opened(hot(Workload.generateJudgedAs(target, ddl, promiseDdl,
                        random, k, s, p), s), described + " (no deletes)"));
            }
            return named(source, () -> {
                Workload generated = hot(Workload.generate(target, ddl, random, k, s, true, p), s);
                String noDeletes = generated.deletesRefused();
                return new Opened(generated, described + (noDeletes == null ? "" : " (no deletes: " + noDeletes
                        + ")"));
            });
        }
        if (fallback != null && promiseDdl == null) {
            return named("the default workload", () -> fallback.open(target, ddl));
        }
        throw new IllegalArgumentException(source + " is not the (id INT, bal INT) table"
                + (promiseDdl != null ? " or is judged by another's promise" : "") + ": give its workload as --upserts"
                + " FILE (a CSV whose header names its columns, and optionally op: upsert or delete; or JSON Lines),"
                + " or --random N");
    }

    /** Bad input from {@code action}, its message prefixed with where it is. */
    private static <T> T named(String where, java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static void checked(String where, Runnable action) {
        named(where, () -> {
            action.run();
            return null;
        });
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
