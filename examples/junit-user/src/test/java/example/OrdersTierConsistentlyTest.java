package example;

import static dev.tierproof.junit.TierproofAssertions.assertThat;

import dev.tierproof.junit.StreamhouseExtension;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OrdersTierConsistentlyTest {
    @RegisterExtension
    static final StreamhouseExtension STREAMHOUSE = StreamhouseExtension.builder().tabletServers(2).build();

    @Test
    void ordersTierConsistently() throws Exception {
        TableEnvironment sql = STREAMHOUSE.tables();
        sql.executeSql("CREATE TABLE orders (id BIGINT, customer STRING, total DECIMAL(10, 2),"
                + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4',"
                + " 'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')").await(2, TimeUnit.MINUTES);
        sql.executeSql("INSERT INTO orders VALUES (1, 'ada', 10.00), (2, 'bob', 20.50), (3, 'cy', 7.25)").await(2, TimeUnit.MINUTES);
        sql.executeSql("INSERT INTO orders VALUES (2, 'bob', 21.00)").await(2, TimeUnit.MINUTES);
        sql.executeSql("DELETE FROM orders WHERE id = 3").await(2, TimeUnit.MINUTES);

        assertThat(STREAMHOUSE.table("fluss.orders")).tiersConsistently();
    }
}
