package dev.tierproof.paimon;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.Workload;
import java.nio.file.Path;
import java.util.List;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataTypeRoot;
import org.apache.paimon.types.RowKind;

/**
 * The limit a proof's write and read are measured against (issue 10's bench): the same rows
 * written into an existing Paimon table and read back through Paimon's own Java API — one batch
 * write, one commit, one batch read, no Flink. For tables of INT columns (the tiered table).
 */
public final class PaimonApiLimit {
    /** How long each half took, and how many rows the read returned. */
    public record Timing(long writeMillis, long readMillis, long rows) {}

    /** Operations fetched from the core at a time. */
    private static final int BATCH = 10_000;

    private PaimonApiLimit() {}

    /** Writes {@code written}'s operations (as {@link Workload#asWritten} gives them) into the table, then reads it. */
    public static Timing run(Path warehouse, String database, String table, Workload written) {
        CatalogContext context = CatalogContext.create(new org.apache.paimon.fs.Path(warehouse.toUri()));
        try (Catalog catalog = CatalogFactory.createCatalog(context)) {
            Table t = catalog.getTable(Identifier.create(database, table));
            List<DataField> fields = t.rowType().getFields();
            for (DataField f : fields) {
                if (f.type().getTypeRoot() != DataTypeRoot.INTEGER) {
                    throw new IllegalArgumentException("the Paimon API limit writes INT columns only; " + f.name()
                            + " is " + f.type());
                }
            }
            long start = System.nanoTime();
            BatchWriteBuilder builder = t.newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (int from = 0; from < written.operations(); from += BATCH) {
                    for (Workload.Operation op : written.operations(from, BATCH)) {
                        GenericRow row = new GenericRow(op.delete() ? RowKind.DELETE : RowKind.INSERT, fields.size());
                        for (int c = 0; c < fields.size(); c++) {
                            row.setField(c, op.cells()[c] == null ? null : Integer.valueOf(op.cells()[c]));
                        }
                        write.write(row);
                    }
                }
                commit.commit(write.prepareCommit());
            }
            long wrote = (System.nanoTime() - start) / 1_000_000;
            start = System.nanoTime();
            long rows = 0;
            ReadBuilder read = t.newReadBuilder();
            try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
                var it = reader.toCloseableIterator();
                while (it.hasNext()) {
                    it.next();
                    rows++;
                }
            }
            return new Timing(wrote, (System.nanoTime() - start) / 1_000_000, rows);
        } catch (TierproofException | IllegalArgumentException e) {
            throw e;
        } catch (Exception e) {
            throw new TierproofException("the Paimon API limit failed: " + e.getMessage(), e);
        }
    }
}
