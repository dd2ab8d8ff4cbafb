package dev.tierproof.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tierproof.core.TierproofException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake outage strikes wherever a schedule puts it: before the lake table's first commit (no
 * manifest directory yet) as after it, and leaves the table as it found it. A Paimon table in a
 * local warehouse, written with Paimon's own batch writer: no servers.
 */
@Tag("quick")
class LakeOutageTest {
    @TempDir
    Path warehouse;

    private Catalog catalog() {
        Options options = new Options();
        options.set("warehouse", warehouse.toString());
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    private Table table(Catalog catalog) throws Exception {
        catalog.createDatabase("db", true);
        Identifier id = Identifier.create("db", "t");
        catalog.createTable(id, Schema.newBuilder().column("k", DataTypes.INT()).column("v", DataTypes.INT())
                .primaryKey("k").option("bucket", "1").build(), false);
        return catalog.getTable(id);
    }

    private static void commit(Table table, int k) throws Exception {
        BatchWriteBuilder builder = table.newBatchWriteBuilder();
        try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
            write.write(GenericRow.of(k, k));
            commit.commit(write.prepareCommit());
        }
    }

    private CompletableFuture<Void> outage(Duration length) {
        LakeLocation lake = LakeLocation.local(warehouse);
        return CompletableFuture.runAsync(() -> LakeOutage.run(lake, "db", "t", length));
    }

    @Test
    void beforeTheFirstCommitTheFirstCommitFailsAndTheTableIsLeftAsItWas() throws Exception {
        try (Catalog catalog = catalog()) {
            Table table = table(catalog);
            Path manifest = warehouse.resolve("db.db").resolve("t").resolve("manifest");
            assertThat(manifest).doesNotExist();
            CompletableFuture<Void> struck = outage(Duration.ofSeconds(2));
            waitFor(manifest);
            assertThat(manifest).as("a file holds the directory's name").isRegularFile();
            assertThatThrownBy(() -> commit(table, 1)).as("the first commit cannot make its manifests");
            struck.get();
            assertThat(manifest).as("the file is gone again").doesNotExist();
            commit(table, 2);
            assertThat(catalog.getTable(Identifier.create("db", "t")).latestSnapshot()).isPresent();
            assertThat(Files.list(manifest.getParent()).map(p -> p.getFileName().toString()).toList())
                    .doesNotContain("manifest.tierproof-outage");
        }
    }

    @Test
    void afterACommitTheManifestsAreMovedAsideAndPutBackWhole() throws Exception {
        try (Catalog catalog = catalog()) {
            Table table = table(catalog);
            commit(table, 1);
            Path manifest = warehouse.resolve("db.db").resolve("t").resolve("manifest");
            List<String> before = names(manifest);
            CompletableFuture<Void> struck = outage(Duration.ofSeconds(2));
            waitFor(manifest.resolveSibling("manifest.tierproof-outage"));
            assertThatThrownBy(() -> commit(table, 2)).as("no commit while the manifests are away");
            struck.get();
            assertThat(names(manifest)).containsAll(before);
            commit(table, 3);
        }
    }

    @Test
    void aTableWithoutADirectoryInTheWarehouseIsRefused() {
        assertThatThrownBy(() -> LakeOutage.run(LakeLocation.local(warehouse), "db", "missing", Duration.ofMillis(1)))
                .isInstanceOf(TierproofException.class);
    }

    private static List<String> names(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Until {@code path} exists (the outage has struck), within 10 s. */
    private static void waitFor(Path path) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!Files.exists(path) && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(path).exists();
    }
}
