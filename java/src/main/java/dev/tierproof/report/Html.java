package dev.tierproof.report;

/** The bits of HTML the reports share: escaping text for a page. */
public final class Html {
    private Html() {}

    /** {@code s} as text in an HTML element or attribute. */
    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
