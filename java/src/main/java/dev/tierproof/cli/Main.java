package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.TierproofException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * {@code tierproof [prove|streamhouse|ddl] [options]}. Exit status: 0 consistent, 1 inconsistent,
 * 2 bad input or a failure to run.
 */
public final class Main {
    static final int CONSISTENT = 0;
    static final int INCONSISTENT = 1;
    static final int FAILED = 2;

    private Main() {}

    public static void main(String[] argv) {
        int status;
        try {
            status = run(Arrays.asList(argv), System.out, System.err);
        } catch (Throwable t) {
            // An Error (a missing class, no memory) must still end the JVM with status 2: Flink's
            // non-daemon threads would otherwise keep it alive.
            System.err.println("tierproof: failed: " + t);
            t.printStackTrace();
            status = FAILED;
        }
        System.exit(status);
    }

    static int run(List<String> argv, PrintStream out, PrintStream err) {
        String command = argv.isEmpty() || argv.get(0).startsWith("--") ? "prove" : argv.get(0);
        List<String> rest = argv.isEmpty() || argv.get(0).startsWith("--") ? argv : argv.subList(1, argv.size());
        try {
            return switch (command) {
                case "prove" -> ProveCommand.run(rest, out, err);
                case "streamhouse" -> StreamhouseCommand.run(rest, out, err);
                case "matrix" -> MatrixCommand.run(rest, out, err);
                case "search" -> SearchCommand.run(rest, out, err);
                case "ddl" -> {
                    out.println(Ddl.tierTableDdl(Args.parse(rest, java.util.Set.of("table")).get("table", "accounts")));
                    yield CONSISTENT;
                }
                case "help", "-h", "--help" -> {
                    out.println(usage());
                    yield CONSISTENT;
                }
                default -> throw new IllegalArgumentException("unknown command " + command + "\n" + usage());
            };
        } catch (IllegalArgumentException e) {
            err.println("tierproof: bad input: " + e.getMessage());
            return FAILED;
        } catch (TierproofException e) {
            err.println("tierproof: failed: " + e.getMessage());
            return FAILED;
        } catch (RuntimeException e) {
            err.println("tierproof: failed: " + e);
            return FAILED;
        }
    }

    static String usage() {
        return String.join(
                "\n",
                "usage: tierproof [command] [options]",
                "  prove        (default) Flink SQL + Paimon: batch read = bounded streaming replay = last value per id",
                "               [--table NAME] [--upserts FILE.csv | --random N --keys K --seed S] [--ddl-file FILE]",
                "               [--warehouse DIR] [--report FILE.json] [--deadline-s N] [--rows-per-insert N]",
                "  streamhouse  a real Fluss cluster tiering into Paimon, every read compared",
                "               [--table NAME] [--upserts FILE.csv | --random N --keys K --seed S]",
                "               [--warehouse DIR] [--report FILE.json] [--deadline-s N]",
                "  matrix       every merge engine x changelog producer x read mode on one workload",
                "               [--upserts FILE.csv | --random N --keys K --seed S] [--report FILE.json]",
                "               [--html FILE.html] [--markdown FILE.md] [--rows-per-insert N]",
                "  search       random workloads against one table; shrinks a failing one to a reproducer",
                "               [--trials N] [--seed S] [--ddl-file FILE] [--out DIR] [--upserts-per-trial N]",
                "  ddl          print the tiered table's DDL [--table NAME]",
                "exit status: 0 consistent, 1 inconsistent, 2 bad input or failure");
    }
}
