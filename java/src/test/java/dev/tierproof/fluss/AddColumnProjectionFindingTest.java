package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tierproof.support.FlussClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.Scan;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pins docs/findings/fluss-0.9-added-column-projected-read.md: on Fluss 0.9.1, once a column is
 * added ({@code ALTER TABLE … ADD}), a read of the log that asks the server for the new column (a
 * projection, as the batch union read asks) fails on every batch written before the ALTER; the
 * same read without a projection pads the column with NULL. Fluss's own client, no proof code.
 * When Fluss fixes it this test fails, and the finding's note goes.
 */
class AddColumnProjectionFindingTest {
    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    private static final Duration BOUND = Duration.ofSeconds(60);

    @Test
    void aProjectedReadOfBatchesWrittenBeforeAnAddedColumnFails() throws Exception {
        TablePath path = TablePath.of("fluss", "evolved");
        try (Connection connection = ConnectionFactory.createConnection(FLUSS.cluster().clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(Schema.newBuilder().column("k", DataTypes.INT())
                    .column("v", DataTypes.INT()).primaryKey("k").build()).distributedBy(1).build(), false)
                    .get(BOUND.toSeconds(), TimeUnit.SECONDS);
            FLUSS.created(path.getDatabaseName(), path.getTableName());
            try (Table before = connection.getTable(path)) {
                before.newUpsert().createWriter().upsert(GenericRow.of(1, 10)).get(BOUND.toSeconds(), TimeUnit.SECONDS);
            }
            admin.alterTable(path, List.of(TableChange.addColumn("note", DataTypes.STRING(), null,
                    TableChange.ColumnPosition.last())), false).get(BOUND.toSeconds(), TimeUnit.SECONDS);
            try (Table after = connection.getTable(path)) {
                after.newUpsert().createWriter().upsert(GenericRow.of(2, 20, BinaryString.fromString("x")))
                        .get(BOUND.toSeconds(), TimeUnit.SECONDS);
                // Without a projection, or projecting the old columns only, the log reads whole.
                assertThat(changes(after.newScan())).containsExactly("(1,10,null)", "(2,20,x)");
                assertThat(changes(after.newScan().project(new int[] {0, 1}))).containsExactly("(1,10)", "(2,20)");
                assertThatThrownBy(() -> changes(after.newScan().project(new int[] {0, 1, 2})))
                        .as("a projected read of the new column reads old batches as NULL: the finding is gone")
                        .hasStackTraceContaining("Projected fields [0, 1, 2] is out of bound for schema with 2"
                                + " fields");
            }
        }
    }

    /** The table's two changes from the log of bucket 0, each as {@code (k,v[,note])}, within the bound. */
    private static List<String> changes(Scan scan) {
        List<String> out = new ArrayList<>();
        try (LogScanner scanner = scan.createLogScanner()) {
            scanner.subscribeFromBeginning(0);
            long until = System.nanoTime() + BOUND.toNanos();
            while (out.size() < 2 && System.nanoTime() < until) {
                for (ScanRecord r : scanner.poll(Duration.ofMillis(500))) {
                    StringBuilder row = new StringBuilder("(");
                    for (int i = 0; i < r.getRow().getFieldCount(); i++) {
                        row.append(i == 0 ? "" : ",").append(r.getRow().isNullAt(i) ? "null"
                                : i == 2 ? r.getRow().getString(i).toString() : String.valueOf(r.getRow().getInt(i)));
                    }
                    out.add(row.append(')').toString());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return out;
    }
}
