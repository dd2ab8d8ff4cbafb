package dev.tierproof.cli;

import dev.tierproof.core.Ddl;
import dev.tierproof.core.Workload;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Which table a command proves: a user's DDL file, a compact spec, or (neither) its default. */
final class TableOptions {
    @Option(names = "--ddl-file", paramLabel = "FILE",
            description = "prove your CREATE TABLE: (id INT, bal INT) with any workload, or any supported shape"
                    + " (keys, partitions, buckets, types, merge engines) with an --upserts file naming its"
                    + " columns or --random N")
    Path ddlFile;

    @Option(names = "--spec", paramLabel = "SPEC",
            description = "a generated table instead, e.g. \"region: STRING, id: BIGINT, amount: DECIMAL(12, 2);"
                    + " key = region, id; partition = region; buckets = 4; engine = first-row\" (named by --table,"
                    + " default t)")
    String spec;

    boolean given() {
        return ddlFile != null || spec != null;
    }

    /** The DDL text these options name (read or generated for {@code target}), or null. */
    String ddl(String table, Workload.Target target) {
        if (ddlFile != null && spec != null) {
            throw new IllegalArgumentException("give --ddl-file FILE or --spec SPEC, not both");
        }
        if (spec != null) {
            return Ddl.fromSpec(spec, table != null ? table : "t", target);
        }
        return ddlFile == null ? null : InputFiles.readText(ddlFile, "--ddl-file");
    }

    /** How errors and the summary name the table's source. */
    String source() {
        return ddlFile != null ? ddlFile.toString() : "--spec";
    }
}
