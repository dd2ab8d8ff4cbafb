package dev.tierproof.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The extension beyond the README's example (examples/junit-user, a user's project that
 * ./build.sh test runs against the installed jar; the README shows its test word for word): the assertion fails with the reads
 * and the diff when a table does not tier consistently (a known Fluss bug makes one), and bad
 * settings are refused with the value named.
 */
class StreamhouseExtensionTest {
    @RegisterExtension
    static final StreamhouseExtension STREAMHOUSE = StreamhouseExtension.builder().build();

    @Test
    void aTableThatDoesNotTierConsistentlyFailsTheAssertionWithTheDiff() throws Exception {
        TableEnvironment sql = STREAMHOUSE.tables();
        // docs/findings/fluss-0.9-int-partition-union-read-duplicates.md
        sql.executeSql("CREATE TABLE by_int (k BIGINT, p INT, v INT, PRIMARY KEY (k, p) NOT ENFORCED)"
                + " PARTITIONED BY (p) WITH ('table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')")
                .await(2, TimeUnit.MINUTES);
        sql.executeSql("INSERT INTO by_int VALUES (1, 553, 1)").await(2, TimeUnit.MINUTES);
        assertThatThrownBy(() -> TierproofAssertions.assertThat(STREAMHOUSE.table("fluss.by_int")).tiersConsistently())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("tiered table fluss.by_int does not tier consistently")
                .hasMessageContaining("fluss_union      : 2 changes -> 1 rows")
                .hasMessageContaining("a snapshot read returned this key twice");
    }

    @Test
    void aTableThatIsNotThereOrNotLakeEnabledIsSaidSo() throws Exception {
        STREAMHOUSE.tables().executeSql("CREATE TABLE plain (k INT, PRIMARY KEY (k) NOT ENFORCED)").await(2, TimeUnit.MINUTES);
        assertThatThrownBy(() -> TierproofAssertions.assertThat(STREAMHOUSE.table("fluss.plain")).tiersConsistently())
                .hasMessageContaining("is not lake-enabled");
        assertThatThrownBy(() -> STREAMHOUSE.table("orders")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("table orders is not DATABASE.TABLE");
        assertThatThrownBy(() -> StreamhouseExtension.builder().tabletServers(0))
                .hasMessage("tabletServers 0 must be between 1 and 8");
        assertThat(Files.isDirectory(STREAMHOUSE.warehouse())).isTrue();
    }

    @Test
    void theReadmeShowsTheExampleTestWordForWord() throws Exception {
        String example = Files.readString(Path.of("..", "examples", "junit-user", "src", "test", "java", "example",
                "OrdersTierConsistentlyTest.java"));
        String readme = Files.readString(Path.of("..", "README.md"));
        assertThat(readme).contains(example.substring(example.indexOf("import ")));
    }
}
