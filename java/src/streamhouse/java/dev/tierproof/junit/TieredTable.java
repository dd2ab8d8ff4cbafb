package dev.tierproof.junit;

import dev.tierproof.fluss.Clients;
import dev.tierproof.audit.TableAudit;
import dev.tierproof.core.TierproofException;
import dev.tierproof.fluss.Tiering;
import dev.tierproof.paimon.LakeLocation;
import dev.tierproof.report.ProofReport;
import dev.tierproof.run.Steps;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;

/**
 * A lake-enabled table of a {@link StreamhouseExtension}'s cluster, as a test wrote it: what
 * {@link TierproofAssertions#assertThat(TieredTable)} checks.
 */
public final class TieredTable {
    private final StreamhouseExtension streamhouse;
    private final TablePath path;

    TieredTable(StreamhouseExtension streamhouse, TablePath path) {
        this.streamhouse = streamhouse;
        this.path = path;
    }

    public TablePath path() {
        return path;
    }

    /**
     * Waits until tiering has caught up with everything written to the table so far, then audits
     * it read-only (tierproof's {@code audit}): the lake snapshot against Fluss's log up to it, and
     * the union read; each by its own source's rules. Throws {@link TierproofException} when
     * tiering does not catch up in time or the tiering job failed: a finding as well.
     */
    public ProofReport audit() {
        // What cannot be audited (no such table, not lake-enabled) is said before any wait: a new
        // table's buckets may have no leader yet, and reading its offsets would fail for that first.
        TableAudit.Config cfg = new TableAudit.Config(path, LakeLocation.local(streamhouse.warehouse()),
                streamhouse.readDeadline());
        TableAudit.check(streamhouse.cluster(), cfg);
        try (Connection connection = Clients.open(streamhouse.cluster().clientConfig())) {
            Tiering.awaitQuiesced(connection.getAdmin(), path, streamhouse.tieringWait());
        } catch (TierproofException e) {
            String failed = streamhouse.tieringFailure();
            throw failed == null ? e : new TierproofException(e.getMessage() + "; the tiering job failed: " + failed, e);
        } catch (Exception e) {
            throw new TierproofException("could not reach the Fluss cluster: " + e.getMessage(), e);
        }
        return TableAudit.run(streamhouse.cluster(), streamhouse.engine(), cfg, Steps.silent());
    }

    @Override
    public String toString() {
        return "tiered table " + path;
    }
}
