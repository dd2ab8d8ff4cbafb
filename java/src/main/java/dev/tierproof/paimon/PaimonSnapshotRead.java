package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;

/**
 * A batch read of one Paimon snapshot through Paimon's own Java API, without Flink: what the lake
 * held at exactly that snapshot (snapshots are immutable, so the read may come after later ones).
 */
public final class PaimonSnapshotRead {
    private PaimonSnapshotRead() {}

    private static Table pinned(Table table, long snapshotId) {
        return withLatestSchema(table, Map.of("scan.snapshot-id", Long.toString(snapshotId)));
    }

    /**
     * The table with these read options, read with its latest schema: a column added since reads
     * NULL in the rows of older snapshots, as in every later read (time travel alone would take
     * the snapshot's schema, without it).
     */
    static Table withLatestSchema(Table table, Map<String, String> options) {
        return table instanceof org.apache.paimon.table.FileStoreTable files ? files.copyWithoutTimeTravel(options)
                : table.copy(options);
    }

    /** Reads the named columns of snapshot {@code snapshotId}, as text, as a step within {@code deadline}. */
    public static Workload.ReadBuffer read(Steps steps, LakeLocation warehouse, String database, String table,
            long snapshotId, Workload.ReadBuffer sink, List<String> columns, Duration deadline) {
        String name = database + "." + table;
        return steps.run("reading lake snapshot " + snapshotId + " of " + name, deadline, control -> {
            control.detail(() -> "it had read " + sink.size() + " rows");
            CatalogContext context = PaimonLake.context(warehouse);
            try (Catalog catalog = CatalogFactory.createCatalog(context)) {
                Table pinned = pinned(catalog.getTable(Identifier.create(database, table)), snapshotId);
                PaimonColumns cols = PaimonColumns.of(pinned, name, columns);
                PaimonValues values = new PaimonValues(cols.fields());
                ReadBuilder builder = pinned.newReadBuilder().withProjection(cols.projection());
                try (RecordReader<InternalRow> rows = builder.newRead().createReader(builder.newScan().plan())) {
                    rows.forEachRemaining(row -> sink.add(row.getRowKind().toByteValue(),
                            values.texts(row)));
                }
                return sink;
            } catch (TierproofException e) {
                throw e;
            } catch (Exception e) {
                throw new TierproofException("reading lake snapshot " + snapshotId + " of " + name + " failed after "
                        + sink.size() + " rows: " + Steps.rootMessage(e), e);
            }
        });
    }
}
