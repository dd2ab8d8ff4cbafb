package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tierproof ddl}: the tiered table's DDL. */
@Command(name = "ddl", mixinStandardHelpOptions = true, description = "Print the tiered table's CREATE TABLE, or a generated table's from --spec.")
final class DdlCommand extends TierproofCommand {
    @Option(names = "--table", paramLabel = "NAME", defaultValue = "accounts",
            description = "the table (default ${DEFAULT-VALUE})")
    String table;

    @Option(names = "--spec", paramLabel = "SPEC",
            description = "a generated table's DDL instead, from a compact spec (see prove --help)")
    String spec;

    @Option(names = "--fluss", description = "with --spec: the Fluss form (bucket.num, tiering on), not Paimon's")
    boolean fluss;

    @Override
    public Integer call() {
        if (spec == null) {
            if (fluss) {
                throw new IllegalArgumentException("--fluss needs --spec SPEC");
            }
            main.out.println(Ddl.tierTableDdl(table));
        } else {
            main.out.println(Ddl.fromSpec(spec, table, fluss ? Workload.Target.FLUSS
                    : Workload.Target.PAIMON));
        }
        return Main.CONSISTENT;
    }
}
