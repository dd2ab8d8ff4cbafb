package dev.tierproof.cli;

import picocli.CommandLine.Command;

/** {@code tierproof reference}: the command reference in Markdown, as docs/reference.md holds it. */
@Command(name = "reference", hidden = true, description = "Print the command reference (docs/reference.md) in Markdown.")
final class ReferenceCommand extends TierproofCommand {
    @Override
    public Integer call() {
        main.out.print(Reference.markdown());
        return Main.CONSISTENT;
    }
}
