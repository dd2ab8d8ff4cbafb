package dev.tierproof.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** docs/reference.md is what the parser generates, option for option. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class ReferenceTest {
    @Test
    void theCommittedReferenceIsWhatTheParserGenerates() throws Exception {
        Path committed = Path.of("..", "docs", "reference.md");
        assertThat(committed).as("docs/reference.md is generated: %s", Reference.REGENERATE).exists();
        assertThat(Files.readString(committed, StandardCharsets.UTF_8))
                .as("docs/reference.md differs from the parser; regenerate it: %s", Reference.REGENERATE)
                .isEqualTo(Reference.markdown());
    }

    @Test
    void everyDescriptionFormatsAsPicocliFormatsIt() {
        // picocli formats each description: a lone % ("50 % of") makes it warn on stderr and print the raw text.
        java.util.List<String> bad = new java.util.ArrayList<>();
        java.util.Deque<picocli.CommandLine> todo = new java.util.ArrayDeque<>(java.util.List.of(Main.parserOnly()));
        while (!todo.isEmpty()) {
            picocli.CommandLine command = todo.pop();
            todo.addAll(command.getSubcommands().values());
            for (picocli.CommandLine.Model.ArgSpec arg : command.getCommandSpec().args()) {
                for (String line : declared(arg)) {
                    try {
                        String.format(line);
                    } catch (java.util.IllegalFormatException e) {
                        bad.add(command.getCommandName() + ": " + line);
                    }
                }
            }
        }
        assertThat(bad).isEmpty();
    }

    /** The description as written in the annotation (picocli's own accessor returns it with %% already as %). */
    private static String[] declared(picocli.CommandLine.Model.ArgSpec arg) {
        if (arg.userObject() instanceof java.lang.reflect.AnnotatedElement element) {
            picocli.CommandLine.Option option = element.getAnnotation(picocli.CommandLine.Option.class);
            picocli.CommandLine.Parameters parameters = element.getAnnotation(picocli.CommandLine.Parameters.class);
            return option != null ? option.description() : parameters != null ? parameters.description()
                    : new String[0];
        }
        return new String[0];
    }

    @Test
    void everyVisibleCommandHasItsUsageAndTheHiddenOneDoesNot() {
        String page = Reference.markdown();
        for (String command : new String[] {"prove", "streamhouse", "matrix", "search", "audit", "cluster",
            "bench", "ddl"}) {
            assertThat(page).contains("\n## tierproof " + command + "\n").contains("Usage: tierproof " + command);
        }
        assertThat(page).doesNotContain("## tierproof reference").doesNotContain("## tierproof help");
    }
}
