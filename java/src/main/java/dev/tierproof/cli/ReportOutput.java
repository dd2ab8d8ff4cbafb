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
        out.print(report.text(ddlLabel));
        if (file != null && file.write(file.html() ? report.html(ddlLabel) : report.toJson() + "\n", err)) {
            out.println("report           : " + file.path());
        }
        return report.consistent() ? Main.CONSISTENT : Main.INCONSISTENT;
    }
}
