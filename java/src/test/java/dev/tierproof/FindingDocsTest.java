package dev.tierproof;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every finding doc starts with its status (the upstream issue, or none found; fixed where;
 * checked when), and the README's findings table links each one, so a reader sees at a glance
 * what is known upstream and how old the claim is.
 */
class FindingDocsTest {
    private static final Path FINDINGS = Path.of("..", "docs", "findings");
    private static final Pattern CHECKED = Pattern.compile("(?i)checked (\\d{4}-\\d{2}-\\d{2})");

    @Test
    void eachFindingDocStartsWithItsStatusAndTheReadmeLinksIt() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        List<Path> docs;
        try (Stream<Path> files = Files.list(FINDINGS)) {
            docs = files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
        }
        assertThat(docs).isNotEmpty();
        for (Path doc : docs) {
            String text = Files.readString(doc);
            String status = text.substring(0, Math.max(0, text.indexOf("\n\n")));
            assertThat(text).as(doc + ": its first line").startsWith("**Status:**");
            assertThat(status).as(doc + ": its status names the upstream issue, or that none was found")
                    .containsPattern("apache/[a-z]+#\\d+|(?i)none found");
            Matcher checked = CHECKED.matcher(status);
            assertThat(checked.find()).as(doc + ": its status says when it was checked").isTrue();
            assertThat(readme).as("the README's findings table links " + doc.getFileName())
                    .contains("(docs/findings/" + doc.getFileName() + ")");
        }
    }

    @Test
    void everyFindingTheReadmeLinksExists() {
        Matcher link = Pattern.compile("\\(docs/findings/([^)]+\\.md)\\)").matcher(readmeText());
        int links = 0;
        while (link.find()) {
            links++;
            assertThat(FINDINGS.resolve(link.group(1))).as("the README links it").isRegularFile();
        }
        assertThat(links).isGreaterThan(5);
    }

    private static String readmeText() {
        try {
            return Files.readString(Path.of("..", "README.md"));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
