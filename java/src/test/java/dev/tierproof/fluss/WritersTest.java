package dev.tierproof.fluss;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each key has one writer, so its writes keep their order; the keys spread over every writer. */
class WritersTest {
    @Test
    void aKeyHasOneWriterAndTheKeysSpreadOverAll() {
        int[] key = {0, 2};
        Set<Integer> used = new HashSet<>();
        for (int k = 0; k < 200; k++) {
            String[] first = {"eu", "1", Integer.toString(k), "x"};
            String[] later = {"eu", "99", Integer.toString(k), null};
            int writer = Writers.writerFor(first, key, 3);
            assertThat(Writers.writerFor(later, key, 3)).as("key " + k).isEqualTo(writer);
            assertThat(writer).isBetween(0, 2);
            used.add(writer);
        }
        assertThat(used).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(Writers.writerFor(new String[] {"us", "1", "5", "x"}, key, 1)).isZero();
    }
}
