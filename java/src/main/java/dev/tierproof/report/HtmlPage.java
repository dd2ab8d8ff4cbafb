package dev.tierproof.report;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * A self-contained HTML page: its style inline, no script, nothing fetched from elsewhere, so
 * that a report file opens the same anywhere, offline and years later.
 */
final class HtmlPage {
    private static final String STYLE = style();

    private final String title;
    private final StringBuilder body = new StringBuilder();

    HtmlPage(String title) {
        this.title = title;
    }

    /** Markup as it is. */
    HtmlPage add(String html) {
        body.append(html).append('\n');
        return this;
    }

    /** A section with a heading; left out when it has nothing to say. */
    HtmlPage section(String id, String heading, String html) {
        if (!html.isEmpty()) {
            body.append("<section id=\"").append(id).append("\">").append(Html.text("h2", "", heading)).append('\n')
                    .append(html).append("</section>\n");
        }
        return this;
    }

    /** Plain text, folded away under {@code summary} until opened. */
    HtmlPage collapsed(String summary, String text) {
        body.append("<details>").append(Html.text("summary", "", summary)).append(Html.text("pre", "", text))
                .append("</details>\n");
        return this;
    }

    String render() {
        return "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                + Html.text("title", "", title) + "<style>\n" + STYLE + "</style></head>\n<body><main>\n" + body
                + "</main></body></html>\n";
    }

    /** The page's style, kept as a CSS file beside this class for reading and editing as CSS. */
    private static String style() {
        try (InputStream in = HtmlPage.class.getResourceAsStream("report.css")) {
            if (in == null) {
                throw new TierproofException("report.css is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new TierproofException("could not read report.css", e);
        }
    }
}
