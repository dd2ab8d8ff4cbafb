package dev.tierproof.paimon;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.GenericRow;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.schema.Schema;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.sink.BatchTableCommit;
import org.apache.paimon.table.sink.BatchTableWrite;
import org.apache.paimon.table.sink.BatchWriteBuilder;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake maintained as users maintain it, on a real Paimon table: a compaction, tags and expired
 * snapshots change no row.
 */
class LakeMaintenanceTest {
    @TempDir
    Path warehouse;

    @Test
    void aCompactionATagAndExpiredSnapshotsChangeNothingAReadReturns() throws Exception {
        LakeLocation lake = LakeLocation.local(warehouse);
        try (Catalog catalog = CatalogFactory.createCatalog(PaimonLake.context(lake))) {
            catalog.createDatabase("db", true);
            catalog.createTable(Identifier.create("db", "t"), Schema.newBuilder().column("k", DataTypes.INT())
                    .column("v", DataTypes.INT()).primaryKey("k").option("bucket", "2").build(), false);
        }
        assertThat(LakeMaintenance.compact(lake, "db", "t")).isEqualTo(
                "nothing to compact: the lake table has no data file yet");
        assertThat(LakeMaintenance.tag(lake, "db", "t")).isEqualTo(
                "nothing to tag: the lake table has no snapshot yet");
        assertThat(LakeMaintenance.expire(lake, "db", "t")).isEqualTo(
                "nothing to expire: the lake table has no snapshot yet");
        assertThat(LakeMaintenance.earliest(lake, "db", "t")).isNull();
        write(lake, 1, 10, 2, 20);
        write(lake, 1, 11, 3, 30);

        assertThat(LakeMaintenance.tag(lake, "db", "t")).isEqualTo("tagged snapshot 2 tierproof-2");
        assertThat(LakeMaintenance.tag(lake, "db", "t")).isEqualTo("snapshot 2 is tagged tierproof-2 already");
        assertThat(LakeMaintenance.compact(lake, "db", "t")).matches(
                "compacted [12] bucket\\(s\\) fully, into snapshot 3");
        assertThat(rows(lake)).isEqualTo("1=11 2=20 3=30");

        // Expiring all but the latest snapshot leaves its rows; the older snapshots are gone.
        assertThat(LakeMaintenance.expire(lake, "db", "t")).isEqualTo("expired 2 snapshot(s), kept snapshot 3");
        assertThat(LakeMaintenance.earliest(lake, "db", "t")).isEqualTo(3L);
        assertThat(rows(lake)).isEqualTo("1=11 2=20 3=30");
        assertThat(LakeMaintenance.expire(lake, "db", "t")).isEqualTo("expired 0 snapshot(s), kept snapshot 3");
    }

    private static void write(LakeLocation lake, int... keysAndValues) throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(PaimonLake.context(lake))) {
            BatchWriteBuilder builder = catalog.getTable(Identifier.create("db", "t")).newBatchWriteBuilder();
            try (BatchTableWrite write = builder.newWrite(); BatchTableCommit commit = builder.newCommit()) {
                for (int i = 0; i + 1 < keysAndValues.length; i += 2) {
                    write.write(GenericRow.of(keysAndValues[i], keysAndValues[i + 1]));
                }
                commit.commit(write.prepareCommit());
            }
        }
    }

    private static String rows(LakeLocation lake) throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(PaimonLake.context(lake))) {
            Table table = catalog.getTable(Identifier.create("db", "t"));
            ReadBuilder read = table.newReadBuilder();
            java.util.TreeMap<Integer, Integer> rows = new java.util.TreeMap<>();
            try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(r -> rows.put(r.getInt(0), r.getInt(1)));
            }
            StringBuilder sb = new StringBuilder();
            rows.forEach((k, v) -> sb.append(sb.length() > 0 ? " " : "").append(k).append('=').append(v));
            return sb.toString();
        }
    }
}
