package dev.tierproof.report;

import java.util.List;
import java.util.Map;

/** What the command line prints and writes of a completed proof, whatever its table's shape. */
public interface Report {
    boolean consistent();

    /** The statement that created the table. */
    String ddl();

    /** Command-specific lines for people, printed between the DDL and the reads. */
    List<String> details();

    /** The reads, the expected state, any diff and the verdict, for people. */
    String summary();

    Map<String, Long> timings();

    /** The JSON report, rendered. */
    String toJson();
}
