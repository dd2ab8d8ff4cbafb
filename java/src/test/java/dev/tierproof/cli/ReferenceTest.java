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
    void everyVisibleCommandHasItsUsageAndTheHiddenOneDoesNot() {
        String page = Reference.markdown();
        for (String command : new String[] {"prove", "streamhouse", "matrix", "search", "audit", "cluster",
            "bench", "ddl"}) {
            assertThat(page).contains("\n## tierproof " + command + "\n").contains("Usage: tierproof " + command);
        }
        assertThat(page).doesNotContain("## tierproof reference").doesNotContain("## tierproof help");
    }
}
