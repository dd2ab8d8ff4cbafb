package dev.tierproof.cli;

import dev.tierproof.report.Report;
import java.io.PrintStream;

/** How the proof commands end: the DDL, any extra lines, the summary, the time, the report file. */
final class ReportOutput {
    private ReportOutput() {}

    /**
     * Prints the report and returns the exit status its verdict calls for: a report file that
     * cannot be written is said on {@code err} and does not change it (1 stays 1).
     */
    static int print(PrintStream out, PrintStream err, Report report, OutputFile file, String ddlLabel) {
        out.println(ddlLabel + ":");
        out.println("  " + report.ddl().replace("\n", "\n  "));
        report.details().forEach(out::println);
        out.print(report.summary());
        out.printf("time             : %s ms in all %s%n", report.timings().get("total"), timings(report.timings()));
        if (file != null && file.write(file.html() ? report.html() : report.toJson() + "\n", err)) {
            out.println("report           : " + file.path());
        }
        return report.consistent() ? Main.CONSISTENT : Main.INCONSISTENT;
    }

    /** Timings as compact JSON: {@code {"create":361,"write":6176,...}}. */
    static String timings(java.util.Map<String, Long> timings) {
        return timings.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                .collect(java.util.stream.Collectors.joining(",", "{", "}"));
    }
}
