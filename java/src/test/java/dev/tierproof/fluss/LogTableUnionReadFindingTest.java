package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.support.FlinkEngineExtension;
import dev.tierproof.support.FlussClusterExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Pins docs/findings/fluss-0.9-log-table-empty-bucket-union-read.md: on Fluss 0.9.1 the batch
 * union read of a datalake-enabled log table (no key) with an empty bucket delivers every row and
 * never ends; with one bucket it ends. Plain Flink SQL on the Fluss catalog, no proof code. When
 * Fluss fixes it this test fails, and the finding's note goes.
 */
class LogTableUnionReadFindingTest {
    @RegisterExtension
    static final FlussClusterExtension FLUSS = new FlussClusterExtension(1);

    @RegisterExtension
    static final FlinkEngineExtension FLINK = new FlinkEngineExtension(8);

    /** Reads every row; true when the read ended by itself within {@code seconds}. */
    static boolean endsWithin(TableEnvironment tables, String query, int rows, int seconds) throws Exception {
        TableResult result = tables.executeSql(query);
        int[] n = {0};
        CompletableFuture<Boolean> ended = CompletableFuture.supplyAsync(() -> {
            try (CloseableIterator<Row> it = result.collect()) {
                while (it.hasNext()) {
                    it.next();
                    n[0]++;
                }
                return true;
            } catch (Exception e) {
                return false; // cancelled below
            }
        });
        try {
            return ended.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return false;
        } finally {
            result.getJobClient().ifPresent(JobClient::cancel);
            assertThat(n[0]).as("rows delivered by " + query).isEqualTo(rows);
        }
    }

    @Test
    void aLogTableWithAnEmptyBucketNeverEndsItsBatchUnionRead() throws Exception {
        TableEnvironment batch = FlussCatalog.register(FLINK.engine().batchTables(), FLUSS.cluster());
        for (String t : new String[] {"one_bucket", "three_buckets"}) {
            batch.executeSql("CREATE TABLE " + t + " (a INT, b STRING) WITH ('bucket.num' = '"
                    + (t.equals("one_bucket") ? 1 : 3) + "', 'table.datalake.enabled' = 'true',"
                    + " 'table.datalake.freshness' = '1s')").await(2, TimeUnit.MINUTES);
            FLUSS.created("fluss", t);
            // One INSERT: a log table without a bucket key puts the batch in one bucket.
            batch.executeSql("INSERT INTO " + t + " VALUES (1, 'x'), (2, 'y'), (3, 'z')").await(2, TimeUnit.MINUTES);
        }
        try (Connection connection = ConnectionFactory.createConnection(FLUSS.cluster().clientConfig());
                Tiering tiering = Tiering.start(FLINK.engine(), FLUSS.cluster(), FLUSS.warehouse(),
                        FlussCatalog.TIERING_POLL)) {
            for (String t : new String[] {"one_bucket", "three_buckets"}) {
                Tiering.Quiesced q = Tiering.awaitQuiesced(connection.getAdmin(), TablePath.of("fluss", t),
                        Duration.ofSeconds(60));
                assertThat(q.buckets()).as(t + ": buckets holding changes").isEqualTo(1);
            }
            assertThat(endsWithin(batch, "SELECT a, b FROM one_bucket", 3, 20)).isTrue();
            assertThat(endsWithin(batch, "SELECT a, b FROM three_buckets", 3, 15))
                    .as("the union read of a log table with empty buckets ended: the finding is gone").isFalse();
        }
    }
}
