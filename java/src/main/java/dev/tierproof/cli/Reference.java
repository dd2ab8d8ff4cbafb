package dev.tierproof.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The command reference, {@code docs/reference.md}, generated from the parser itself: every
 * command's usage message as {@code help COMMAND} prints it, so the page cannot drift from the
 * options it documents ({@code ReferenceTest} fails when the committed page differs).
 */
final class Reference {
    /** A fixed width: the page must not depend on the terminal it was generated in. */
    static final int WIDTH = 100;

    static final String REGENERATE = "./build.sh run reference > docs/reference.md";

    private Reference() {}

    /** The whole page. */
    static String markdown() {
        CommandLine root = Main.parserOnly();
        StringBuilder page = new StringBuilder("# Command reference\n\n")
                .append("Generated from tierproof's own parser (`").append(REGENERATE).append("`);\n")
                .append("a test fails when this page differs from what the parser prints. Each command prints\n")
                .append("its own with `./build.sh run help COMMAND`.\n\n");
        for (CommandLine command : commands(root)) {
            page.append("- [`").append(command.getCommandSpec().qualifiedName()).append("`](#")
                    .append(anchor(command)).append(")\n");
        }
        for (CommandLine command : commands(root)) {
            page.append("\n## ").append(command.getCommandSpec().qualifiedName()).append("\n\n```text\n")
                    .append(usage(command)).append("```\n");
        }
        return page.toString();
    }

    /** The root and every visible subcommand, depth first, in the parser's order. */
    private static List<CommandLine> commands(CommandLine root) {
        List<CommandLine> all = new ArrayList<>();
        all.add(root);
        for (CommandLine sub : root.getSubcommands().values()) {
            boolean helpCommand = sub.getCommandSpec().userObject() instanceof CommandLine.HelpCommand;
            if (!sub.getCommandSpec().usageMessage().hidden() && !helpCommand && !all.contains(sub)) {
                all.addAll(commands(sub));
            }
        }
        return all.stream().distinct().toList();
    }

    private static String usage(CommandLine command) {
        command.setUsageHelpWidth(WIDTH);
        command.setUsageHelpAutoWidth(false);
        // Trailing blanks are how picocli pads columns; Markdown and editors drop them.
        return command.getUsageMessage(CommandLine.Help.Ansi.OFF).replaceAll("(?m)[ \\t]+$", "");
    }

    /** GitHub's anchor for the heading: lower case, spaces as dashes. */
    private static String anchor(CommandLine command) {
        return command.getCommandSpec().qualifiedName().toLowerCase(java.util.Locale.ROOT).replace(' ', '-');
    }
}
