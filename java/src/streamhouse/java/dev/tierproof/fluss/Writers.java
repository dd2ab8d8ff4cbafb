package dev.tierproof.fluss;

import dev.tierproof.core.Workload;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.TableWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;

/**
 * The writers of one run's operations: one per Fluss connection, writing at once (each connection
 * its own client, sender and writer id, as separate producers are). A keyed table's key is written
 * by one writer only, chosen by the key's cells, so each key's writes keep the workload's order and
 * the expected state stays exact; a log table's appends go round the writers in turn.
 */
final class Writers implements AutoCloseable {
    private final List<Connection> connections = new ArrayList<>();
    private TablePath path;
    private final List<Table> tables = new ArrayList<>();
    private final List<TableWriter> writers = new ArrayList<>();
    private FlussValues values;
    private boolean keyed;
    private int[] key;
    private int turn;

    private Writers() {}

    static Writers open(List<Connection> connections, TablePath path) throws Exception {
        Writers w = new Writers();
        w.connections.addAll(connections);
        w.path = path;
        try {
            w.make();
            return w;
        } catch (Exception | Error e) {
            w.close();
            throw e;
        }
    }

    /** A writer per connection, of the table as its server describes it now. */
    private void make() {
        values = null;
        for (Connection c : connections) {
            Table table = c.getTable(path); // asks the server: a schema changed since is seen
            tables.add(table);
            if (values == null) {
                values = new FlussValues(table.getTableInfo().getRowType());
                keyed = table.getTableInfo().hasPrimaryKey();
                key = table.getTableInfo().getSchema().getPrimaryKeyIndexes();
            }
            writers.add(ClientWriter.writerOf(table, keyed));
        }
    }

    /**
     * The writers made again once every write handed over is answered, of the table's schema now
     * ({@code ALTER TABLE … ADD} struck): a writer keeps the schema it was made with, and one
     * batch never mixes two.
     */
    void reopen() throws Exception {
        flush();
        writers.clear();
        close();
        tables.clear();
        make();
    }

    /** Hands {@code op} to its writer; the future completes with the server's answer. */
    CompletableFuture<?> write(Workload.Operation op) {
        TableWriter writer = writers.get(writerOf(op));
        // Before a column is added, the table has fewer columns than the workload: the last cells are not there yet.
        String[] cells = op.cells();
        GenericRow row = values.row(cells.length > values.width() ? Arrays.copyOf(cells, values.width()) : cells);
        if (keyed) {
            UpsertWriter upserts = (UpsertWriter) writer;
            return op.delete() ? upserts.delete(row) : upserts.upsert(row);
        }
        return ((AppendWriter) writer).append(row);
    }

    /** Which writer writes {@code op}: by its key's cells, or in turn without a key. */
    private int writerOf(Workload.Operation op) {
        if (writers.size() == 1) {
            return 0;
        }
        return keyed ? writerFor(op.cells(), key, writers.size()) : turn++ % writers.size();
    }

    /** The writer of a keyed row's cells among {@code n}: the same for the same key, whatever else it holds. */
    static int writerFor(String[] cells, int[] key, int n) {
        String[] keyCells = new String[key.length];
        for (int i = 0; i < key.length; i++) {
            keyCells[i] = cells[key[i]];
        }
        return Math.floorMod(Arrays.hashCode(keyCells), n);
    }

    /** Blocks until every write handed to any writer is answered. */
    void flush() {
        writers.forEach(TableWriter::flush);
    }

    @Override
    public void close() throws Exception {
        Exception first = null;
        for (Table t : tables) {
            try {
                t.close();
            } catch (Exception e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
