package dev.tierproof.util;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Removing a tree: two runs that start at once may both sweep the same stale run directory. Each
 * must finish without an error while the other deletes beside it (a run once failed so, on
 * {@code NoSuchFileException} from a half-deleted tree).
 */
@Tag("quick")
class DirectoriesTest {
    @TempDir
    Path tmp;

    @Test
    void sweepersThatDeleteTheSameTreeAtOnceBothSucceed() throws Exception {
        for (int round = 0; round < 20; round++) {
            Path root = tree(tmp.resolve("run-" + round));
            CyclicBarrier start = new CyclicBarrier(4);
            List<CompletableFuture<Void>> sweepers = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                sweepers.add(CompletableFuture.runAsync(() -> {
                    try {
                        start.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    Directories.deleteRecursively(root);
                }));
            }
            CompletableFuture.allOf(sweepers.toArray(CompletableFuture[]::new)).get();
            assertThat(root).doesNotExist();
        }
    }

    @Test
    void aMissingPathIsFineAndAFileIsRemovedToo() throws Exception {
        Directories.deleteRecursively(tmp.resolve("never-made"));
        Path file = Files.writeString(tmp.resolve("f"), "x");
        Directories.deleteRecursively(file.resolve("below"));
        Directories.deleteRecursively(file);
        assertThat(file).doesNotExist();
    }

    /** 20 directories of 25 files each. */
    private static Path tree(Path root) throws Exception {
        for (int d = 0; d < 20; d++) {
            Path dir = Files.createDirectories(root.resolve("d" + d));
            for (int f = 0; f < 25; f++) {
                Files.writeString(dir.resolve("f" + f), "x");
            }
        }
        return root;
    }
}
