package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tierproof ddl}: the tiered table's DDL. */
@Command(name = "ddl", mixinStandardHelpOptions = true, description = "Print the tiered table's CREATE TABLE.")
final class DdlCommand extends TierproofCommand {
    @Option(names = "--table", paramLabel = "NAME", defaultValue = "accounts",
            description = "the table (default ${DEFAULT-VALUE})")
    String table;

    @Override
    public Integer call() {
        main.out.println(Ddl.tierTableDdl(table));
        return Main.CONSISTENT;
    }
}
