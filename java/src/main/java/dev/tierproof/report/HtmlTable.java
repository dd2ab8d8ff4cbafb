package dev.tierproof.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A table for the page: a header row, then rows of cells that are already HTML. */
final class HtmlTable {
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private Set<Integer> numeric = Set.of();
    private String cls = "";

    HtmlTable(String... header) {
        this.header = List.of(header);
    }

    /** Columns whose numbers align right, so that digits line up. */
    HtmlTable numeric(Integer... columns) {
        numeric = Set.of(columns);
        return this;
    }

    /** A class of the page's style for this table. */
    HtmlTable styled(String cls) {
        this.cls = cls;
        return this;
    }

    HtmlTable row(String... cells) {
        rows.add(List.of(cells));
        return this;
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    String html() {
        StringBuilder sb = new StringBuilder(cls.isEmpty() ? "<table>" : "<table class=\"" + cls + "\">")
                .append("<thead><tr>");
        for (int i = 0; i < header.size(); i++) {
            sb.append(Html.text("th", numeric.contains(i) ? "num" : "", header.get(i)));
        }
        sb.append("</tr></thead><tbody>\n");
        for (List<String> row : rows) {
            sb.append("<tr>");
            for (int i = 0; i < row.size(); i++) {
                sb.append(Html.element("td", numeric.contains(i) ? "num" : "", row.get(i)));
            }
            sb.append("</tr>\n");
        }
        return sb.append("</tbody></table>\n").toString();
    }
}
