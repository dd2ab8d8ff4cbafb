package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The search's table options come from Fluss's and Paimon's own definitions: by type, without what
 * the spec sets or the core does not model, each value one the engine's parser takes.
 */
@Tag("quick") // no servers: option definitions by reflection
class TableSettingsTest {
    @Test
    void theCatalogueIsTheEnginesOwnLessWhatIsLeftOutAndWhy() {
        Map<String, java.util.List<String>> all = TableSettings.choices().stream()
                .collect(Collectors.toMap(TableSettings.Choice::key, TableSettings.Choice::values));
        assertThat(all.get("table.log.format")).contains("INDEXED").doesNotContain("ARROW");
        assertThat(all.get("table.kv.format")).isNotEmpty();
        assertThat(all.get("paimon.deletion-vectors.enabled")).containsExactly("true");
        assertThat(all.get("paimon.target-file-size")).containsExactly("1kb", "64mb");
        assertThat(all.keySet()).as("no thread counts, levels, retries or waits").noneMatch(k -> k.contains("thread")
                || k.contains("level") || k.contains("retry") || k.contains("wait"));
        assertThat(TableSettings.choices()).extracting(TableSettings.Choice::key).isSorted();
        assertThat(all.keySet()).as("the core refuses options naming a location").noneMatch(k -> k.contains("path")
                || k.contains("external") || k.contains("dir"));
        assertThat(all).doesNotContainKeys("bucket.num", "table.merge-engine", "table.datalake.enabled",
                "table.datalake.freshness", "table.log.ttl", "paimon.merge-engine", "paimon.bucket",
                "paimon.snapshot.num-retained.max", "paimon.changelog-producer", "paimon.sequence.field",
                "paimon.type", "paimon.log.ignore-delete", "paimon.file.compression.zstd-level",
                "table.log.arrow.compression.zstd.level");
        assertThat(all.keySet()).allMatch(k -> k.startsWith("table.") || k.startsWith("paimon."));
        assertThat(all.size()).isGreaterThan(30);
    }

    @Test
    void aSeedDrawsTheSameOptionsEveryTime() {
        assertThat(TableSettings.random(7, 3)).isEqualTo(TableSettings.random(7, 3)).hasSizeLessThanOrEqualTo(3);
        assertThat(TableSettings.random(7, 0)).isEmpty();
        long differentDraws = java.util.stream.LongStream.range(0, 20).mapToObj(s -> TableSettings.random(s, 3))
                .distinct().count();
        assertThat(differentDraws).isGreaterThan(10);
        assertThat(TableSettings.specText(Map.of("b.x", "1", "a.y", "true"))).isEqualTo("; a.y = true; b.x = 1");
    }
}
