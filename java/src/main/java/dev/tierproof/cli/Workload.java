package dev.tierproof.cli;

import dev.tierproof.core.Rows;
import dev.tierproof.core.Workloads;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The upserts a command runs: a CSV file, a seeded random workload, or the default example. */
final class Workload {
    private Workload() {}

    /** The exercise's kind of workload: a dozen upserts, ids repeated, a NULL balance. */
    static final String EXAMPLE_CSV =
            "id,bal\n1,100\n2,200\n3,300\n1,150\n2,\n4,400\n3,-50\n1,175\n5,500\n4,410\n2,250\n5,\n";

    static Rows from(Args args) {
        if (args.has("upserts") && args.has("random")) {
            throw new IllegalArgumentException("give --upserts FILE or --random N, not both");
        }
        if (args.has("upserts")) {
            Path file = Path.of(args.get("upserts", ""));
            try {
                return Workloads.parseCsv(Files.readString(file));
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read --upserts " + file + ": " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": " + e.getMessage());
            }
        }
        if (args.has("random")) {
            int n = (int) args.longValue("random", 0, 0, 10_000_000);
            int keys = (int) args.longValue("keys", Math.max(1, n / 4), 1, Integer.MAX_VALUE);
            long seed = args.longValue("seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
            return Workloads.random(n, keys, seed);
        }
        return Workloads.parseCsv(EXAMPLE_CSV);
    }

    static String describe(Args args, Rows upserts) {
        if (args.has("upserts")) {
            return upserts.size() + " upserts from " + args.get("upserts", "");
        }
        if (args.has("random")) {
            return upserts.size() + " random upserts over " + args.get("keys", "n/4") + " keys, seed "
                    + args.get("seed", "1");
        }
        return upserts.size() + " upserts (the built-in example)";
    }
}
