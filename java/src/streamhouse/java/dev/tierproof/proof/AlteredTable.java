package dev.tierproof.proof;

import dev.tierproof.nemesis.TableOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TablePath;

/** The run's table through Fluss's admin: its options now, and {@code ALTER TABLE … SET}, each bounded. */
final class AlteredTable implements TableOptions {
    private final Admin admin;
    private final TablePath path;
    private final Duration bound;

    AlteredTable(Admin admin, TablePath path, Duration bound) {
        this.admin = admin;
        this.path = path;
        this.bound = bound != null ? bound : Duration.ofSeconds(30);
    }

    @Override
    public String get(String key) {
        return await("reading " + path + "'s options", admin.getTableInfo(path)).getProperties().toMap().get(key);
    }

    @Override
    public void set(String key, String value) {
        await("ALTER TABLE " + path + " SET ('" + key + "' = '" + value + "')",
                admin.alterTable(path, List.of(TableChange.set(key, value)), false));
    }

    private <T> T await(String what, java.util.concurrent.CompletableFuture<T> future) {
        try {
            return future.get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(what + " failed: " + dev.tierproof.run.Steps.rootMessage(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(what + " was interrupted", e);
        }
    }
}
