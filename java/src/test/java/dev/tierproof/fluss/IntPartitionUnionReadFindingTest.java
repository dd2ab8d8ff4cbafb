package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.support.FlinkEngineExtension;
import dev.tierproof.support.FlussClusterExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pins docs/findings/fluss-0.9-int-partition-union-read-duplicates.md: on Fluss 0.9.1, once
 * tiering has caught up, the batch union read of a primary-key table partitioned by an INT column
 * returns every row twice; partitioned by a STRING column, once. Plain Flink SQL on the Fluss
 * catalog, no proof code. When Fluss fixes it this test fails, and the finding's note goes.
 */
class IntPartitionUnionReadFindingTest {
    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(8);

    static List<String> rows(TableEnvironment tables, String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = tables.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        return out;
    }

    @Test
    void theUnionReadOfAnIntPartitionedTableReturnsEveryRowTwice() throws Exception {
        TableEnvironment batch = FlussCatalog.register(FLINK.engine().batchTables(), FLUSS.cluster());
        for (String type : new String[] {"INT", "STRING"}) {
            String t = "by_" + type.toLowerCase(java.util.Locale.ROOT);
            batch.executeSql("CREATE TABLE " + t + " (k BIGINT, p " + type + ", v INT, PRIMARY KEY (k, p) NOT"
                    + " ENFORCED) PARTITIONED BY (p) WITH ('bucket.num' = '1', 'table.datalake.enabled' = 'true',"
                    + " 'table.datalake.freshness' = '1s')").await(2, TimeUnit.MINUTES);
            FLUSS.created("fluss", t);
            batch.executeSql("INSERT INTO " + t + " VALUES (1, CAST(553 AS " + type + "), 1), (3, CAST(7 AS "
                    + type + "), 3)").await(2, TimeUnit.MINUTES);
        }
        try (Connection connection = ConnectionFactory.createConnection(FLUSS.cluster().clientConfig());
                Tiering tiering = Tiering.start(FLINK.engine(), FLUSS.cluster(), FLUSS.warehouse(),
                        FlussCatalog.TIERING_POLL)) {
            for (String t : new String[] {"by_int", "by_string"}) {
                Tiering.Quiesced q = Tiering.awaitQuiesced(connection.getAdmin(), TablePath.of("fluss", t),
                        Duration.ofSeconds(60));
                assertThat(q.logEndOffset()).as(t + ": tiered changes").isEqualTo(2);
            }
            assertThat(rows(batch, "SELECT k, p, v FROM by_string")).containsExactlyInAnyOrder("+I[1, 553, 1]",
                    "+I[3, 7, 3]");
            assertThat(rows(batch, "SELECT k, p, v FROM by_int"))
                    .as("the union read of an INT-partitioned table returns each row once: the finding is gone")
                    .containsExactlyInAnyOrder("+I[1, 553, 1]", "+I[1, 553, 1]", "+I[3, 7, 3]", "+I[3, 7, 3]");
        }
    }
}
