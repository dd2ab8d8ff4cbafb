package dev.tierproof.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.support.FlinkEngineExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.CloseableIterator;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins a finding of the general streamhouse proof (docs/findings/paimon-1.3-batch-update-after.md):
 * Paimon's Flink source declares a batch read insert-only, yet a key whose last write was an
 * update-after ({@code +U}, as Fluss's tiering writes every update) comes back as a {@code +U}
 * row. Reproduced here without Fluss: two commits through Paimon's own Java API, one batch SELECT.
 * When Paimon fixes it this test fails, and the finding's note and this test go.
 */
class BatchRowKindFindingTest {
    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(2);

    @TempDir
    Path warehouse;

    @Test
    void aBatchReadReturnsTheLastWritesUpdateAfterKind() throws Exception {
        TableEnvironment batch = FLINK.engine().batchTables();
        PaimonTables.register(batch, warehouse);
        batch.executeSql("CREATE TABLE kinds (k INT, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket' = '1')")
                .await(2, TimeUnit.MINUTES);
        try (Catalog catalog = CatalogFactory.createCatalog(
                CatalogContext.create(new org.apache.paimon.fs.Path(warehouse.toUri())))) {
            Table table = catalog.getTable(Identifier.create("default", "kinds"));
            commit(table, GenericRow.of(1, 10), GenericRow.of(2, 20));
            commit(table, GenericRow.ofKind(org.apache.paimon.types.RowKind.UPDATE_AFTER, 1, 11));
        }
        List<Row> rows = new ArrayList<>();
        try (CloseableIterator<Row> it = batch.executeSql("SELECT k, v FROM kinds").collect()) {
            it.forEachRemaining(rows::add);
        }
        assertThat(rows).extracting(r -> r.getField(0) + "=" + r.getField(1)).containsExactlyInAnyOrder("1=11", "2=20");
        // The finding: an insert-only (batch) result holds a +U row.
        assertThat(rows).filteredOn(r -> r.getField(0).equals(1)).extracting(Row::getKind)
                .containsExactly(RowKind.UPDATE_AFTER);
        assertThat(rows).filteredOn(r -> r.getField(0).equals(2)).extracting(Row::getKind)
                .containsExactly(RowKind.INSERT);
    }

    private static void commit(Table table, GenericRow... rows) throws Exception {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            for (GenericRow row : rows) {
                write.write(row);
            }
            commit.commit(write.prepareCommit());
        }
    }
}
