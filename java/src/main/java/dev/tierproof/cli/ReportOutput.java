package dev.tierproof.cli;

import dev.tierproof.paimon.ProofReport;
import java.io.PrintStream;
import java.nio.file.Path;

/** How the proof commands end: the DDL, any extra lines, the summary, the time, the report file. */
final class ReportOutput {
    private ReportOutput() {}

    interface Lines {
        void print(PrintStream out);
    }

    /** Prints the report and returns the exit status its verdict calls for. */
    static int print(PrintStream out, ProofReport report, Args args, String ddlLabel, Lines extra) {
        out.println(ddlLabel + ":");
        out.println("  " + report.json().path("ddl").asText().replace("\n", "\n  "));
        extra.print(out);
        out.print(report.summary());
        out.printf("time             : %s ms in all %s%n",
                report.json().path("timings_ms").path("total").asText(), report.json().path("timings_ms"));
        if (args.has("report")) {
            report.write(Path.of(args.get("report", "")));
            out.println("report           : " + args.get("report", ""));
        }
        return report.consistent() ? Main.CONSISTENT : Main.INCONSISTENT;
    }
}
