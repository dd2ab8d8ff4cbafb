package dev.tierproof.audit;

import dev.tierproof.core.TablePaths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataField;

/**
 * A Fluss table someone else created, as the {@code CREATE TABLE} the Rust core reads shapes
 * from: its columns and types, primary key, partition keys, bucket count and merge engine, as
 * Fluss reports them. Every name goes through the core's quoting (a name it refuses is named).
 */
final class AuditedTable {
    /** The table options that change what the table holds (and so how its reads are judged). */
    private static final List<String> MERGE_OPTIONS = List.of("table.merge-engine",
            "table.merge-engine.versioned.ver-column");

    private AuditedTable() {}

    static String ddl(TableInfo info) {
        TablePath path = info.getTablePath();
        List<String> lines = new ArrayList<>();
        for (DataField f : info.getRowType().getFields()) {
            // Nullability is the key's business (a key column is NOT NULL in Fluss): types only.
            lines.add("  " + TablePaths.quotedPath(f.getName()) + " " + f.getType().copy(true).asSummaryString());
        }
        if (info.hasPrimaryKey()) {
            lines.add("  PRIMARY KEY (" + quoted(info.getPrimaryKeys()) + ") NOT ENFORCED");
        }
        StringBuilder sb = new StringBuilder("CREATE TABLE ")
                .append(TablePaths.quotedPath(path.getDatabaseName(), path.getTableName()))
                .append(" (\n").append(String.join(",\n", lines)).append("\n)");
        if (info.isPartitioned()) {
            sb.append(" PARTITIONED BY (").append(quoted(info.getPartitionKeys())).append(")");
        }
        Map<String, String> props = info.getProperties().toMap();
        List<String> with = new ArrayList<>();
        with.add("'bucket.num' = '" + info.getNumBuckets() + "'");
        for (String key : MERGE_OPTIONS) {
            String v = props.get(key);
            if (v != null) {
                with.add("'" + key + "' = '" + v.replace("'", "''") + "'");
            }
        }
        return sb.append(" WITH (\n  ").append(String.join(",\n  ", with)).append("\n)").toString();
    }

    private static String quoted(List<String> names) {
        return names.stream().map(TablePaths::quotedPath).collect(Collectors.joining(", "));
    }
}
