package dev.tierproof.paimon;

import dev.tierproof.core.Workload;
import dev.tierproof.core.TierproofException;
import dev.tierproof.run.Steps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.StreamTableScan;
import org.apache.paimon.table.source.TableRead;

/**
 * A second, independent streaming reader: Paimon's own Java stream scan, without Flink. It replays
 * the table's changelog from snapshot 1 and is bounded by Paimon's snapshot ids: it stops once the
 * scan's next snapshot is past the latest one when the read began.
 */
public final class PaimonStreamReplay {
    private PaimonStreamReplay() {}

    /**
     * Replays the named columns, as text ({@link PaimonValues}), as a step of {@code steps} within
     * {@code deadline} (a lake table's Fluss system columns are left out by naming only the
     * table's own).
     */
    public static Workload.ReadBuffer replay(Steps steps, LakeLocation warehouse, String database, String table,
            Workload.ReadBuffer sink, List<String> columns, Duration deadline) {
        String name = sink.name();
        return steps.run("the " + name + " replay", deadline, control -> {
            control.detail(() -> "it had read " + sink.size() + " changes");
            CatalogContext context = PaimonLake.context(warehouse);
            try (Catalog catalog = CatalogFactory.createCatalog(context)) {
                Table base = catalog.getTable(Identifier.create(database, table));
                long last = base.latestSnapshot().map(Snapshot::id).orElseThrow(() ->
                        new TierproofException("table " + database + "." + table + " has no snapshot to replay"));
                Table replay = PaimonSnapshotRead.withLatestSchema(base, Map.of("scan.mode", "from-snapshot",
                        "scan.snapshot-id", "1"));
                PaimonColumns cols = PaimonColumns.of(replay, database + "." + table, columns);
                PaimonValues values = new PaimonValues(cols.fields());
                ReadBuilder builder = replay.newReadBuilder().withProjection(cols.projection());
                StreamTableScan scan = builder.newStreamScan();
                TableRead read = builder.newRead();
                while (!control.cancelled()) {
                    try (RecordReader<InternalRow> rows = read.createReader(scan.plan())) {
                        rows.forEachRemaining(row -> sink.add(row.getRowKind().toByteValue(),
                                values.texts(row)));
                    }
                    Long next = scan.checkpoint();
                    if (next != null && next > last) {
                        break;
                    }
                }
                return sink;
            } catch (TierproofException e) {
                throw e;
            } catch (Exception e) {
                throw new TierproofException("the " + name + " replay failed after " + sink.size() + " changes: "
                        + Steps.rootMessage(e), e);
            }
        });
    }
}
