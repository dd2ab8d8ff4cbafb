package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The servers' own word that they cut committed changes, as 0.9.1's tablet servers log it. */
class CommittedTruncationTest {
    @TempDir
    Path dir;

    @Test
    void aCutBelowTheHighWatermarkOfTheRunsTableIsAFailureNamingTheServers() throws Exception {
        String cut = "19:57:05.205 WARN  ReplicaFetcherThread - Truncating TableBucket{tableId=1, bucket=0} to offset"
                + " 12 below high watermark 40\n";
        Path t0 = Files.writeString(dir.resolve("tablet-0.log"), "19:57:04.889 INFO  LogTablet - Truncating to offset"
                + " 12 for bucket TableBucket{tableId=1, bucket=0}\n" + cut);
        Path t1 = Files.writeString(dir.resolve("tablet-1.log"), cut + "19:58:00.000 WARN  ReplicaFetcherThread -"
                + " Truncating TableBucket{tableId=7, bucket=2} to offset 3 below high watermark 9\n");
        Path missing = dir.resolve("tablet-2.log");

        List<String> found = CommittedTruncation.of(List.of(t0, t1, missing), 1);
        assertThat(found).singleElement().asString().startsWith("committed changes lost: the log of tablet-0 and"
                + " tablet-1 says it cut TableBucket{tableId=1, bucket=0} to offset 12 below its high watermark 40")
                .contains(CommittedTruncation.DOC);
        assertThat(CommittedTruncation.of(List.of(t0, t1), 7)).singleElement().asString()
                .contains("tablet-1 says it cut TableBucket{tableId=7, bucket=2} to offset 3");
        // A truncation to the high watermark (a follower's ordinary start) is no loss.
        assertThat(CommittedTruncation.of(List.of(t0, t1), 2)).isEmpty();
    }
}
