package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.fluss.client.table.writer.AppendResult;
import org.apache.fluss.client.table.writer.DeleteResult;
import org.apache.fluss.client.table.writer.UpsertResult;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A lake snapshot's offsets name exactly the writes it holds: per bucket, those whose batch ended at or below. */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class AcksTest {
    private static final TableBucket B0 = new TableBucket(7, 0);
    private static final TableBucket B1 = new TableBucket(7, 1);
    private static final TableBucket P3B0 = new TableBucket(7, 3L, 0);

    @Test
    void aCutHoldsTheWritesBelowEachBucketsOffset() {
        Acks acks = new Acks(6);
        acks.record(0, new UpsertResult(B0, 2)); // a batch of two writes: both end at offset 2
        acks.record(1, new UpsertResult(B0, 2));
        acks.record(2, new UpsertResult(B1, 1));
        acks.record(3, new DeleteResult(B0, 3));
        acks.record(4, new UpsertResult(P3B0, 1)); // another partition's bucket 0: not B0
        // operation 5 was rejected: no acknowledgement, in no cut
        assertThat(acks.any()).isTrue();
        assertThat(acks.within(Map.of())).isEmpty();
        assertThat(acks.within(Map.of(B0, 1L))).as("mid-batch is before the batch").isEmpty();
        assertThat(acks.within(Map.of(B0, 2L))).containsExactly(0, 1);
        assertThat(acks.within(Map.of(B0, 3L, B1, 0L))).containsExactly(0, 1, 3);
        assertThat(acks.within(Map.of(B0, 3L, B1, 1L, P3B0, 1L))).containsExactly(0, 1, 2, 3, 4);
        assertThat(acks.within(Map.of(P3B0, 5L))).containsExactly(4);
        // Only an offset that ends a batch (or 0) names exactly the writes below it.
        assertThat(acks.endsBatches(Map.of(B0, 2L, B1, 0L))).isTrue();
        assertThat(acks.endsBatches(Map.of(B0, 3L, B1, 1L, P3B0, 1L))).isTrue();
        assertThat(acks.endsBatches(Map.of(B0, 1L))).as("inside the batch of writes 0 and 1").isFalse();
        assertThat(acks.endsBatches(Map.of(B0, 2L, B1, 2L))).as("past every batch of B1").isFalse();
        assertThat(acks.endsBatches(Map.of(P3B0, 2L))).as("B0's batch end is not P3B0's").isFalse();
    }

    @Test
    void appendsSayNothingOfOffsets() {
        Acks acks = new Acks(2);
        acks.record(0, new AppendResult());
        acks.record(1, UpsertResult.empty());
        assertThat(acks.any()).isFalse();
        assertThat(acks.within(Map.of(B0, 100L))).isEmpty();
    }
}
