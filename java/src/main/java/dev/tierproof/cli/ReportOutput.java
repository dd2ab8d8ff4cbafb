package dev.tierproof.cli;

import dev.tierproof.paimon.ProofReport;
import java.io.PrintStream;

/** How the proof commands end: the DDL, any extra lines, the summary, the time, the report file. */
final class ReportOutput {
    private ReportOutput() {}

    interface Lines {
        void print(PrintStream out);
    }

    /**
     * Prints the report and returns the exit status its verdict calls for: a report file that
     * cannot be written is said on {@code err} and does not change it (1 stays 1).
     */
    static int print(PrintStream out, PrintStream err, ProofReport report, OutputFile file, String ddlLabel,
            Lines extra) {
        out.println(ddlLabel + ":");
        out.println("  " + report.json().path("ddl").asText().replace("\n", "\n  "));
        extra.print(out);
        out.print(report.summary());
        out.printf("time             : %s ms in all %s%n",
                report.json().path("timings_ms").path("total").asText(), report.json().path("timings_ms"));
        if (file != null && file.write(report.toJson() + "\n", err)) {
            out.println("report           : " + file.path());
        }
        return report.consistent() ? Main.CONSISTENT : Main.INCONSISTENT;
    }
}
