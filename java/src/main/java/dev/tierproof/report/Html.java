package dev.tierproof.report;

/** The bits of HTML the reports share: escaping text for a page, and wrapping it in an element. */
public final class Html {
    private Html() {}

    /** {@code s} as text in an HTML element or attribute. */
    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** {@code text}, escaped, in a {@code tag} element of class {@code cls} (none when empty). */
    static String text(String tag, String cls, String text) {
        return element(tag, cls, escape(text));
    }

    /** {@code html} (already markup) in a {@code tag} element of class {@code cls} (none when empty). */
    static String element(String tag, String cls, String html) {
        return "<" + tag + (cls.isEmpty() ? "" : " class=\"" + cls + "\"") + ">" + html + "</" + tag + ">";
    }

    /** A count as people read it: {@code 12,345}. */
    static String count(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }
}
