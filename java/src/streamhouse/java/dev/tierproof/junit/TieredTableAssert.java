package dev.tierproof.junit;

import dev.tierproof.core.TierproofException;
import dev.tierproof.report.ProofReport;
import org.assertj.core.api.AbstractAssert;

/** AssertJ assertions on a {@link TieredTable}; a failure's message holds the reads and the diff. */
public final class TieredTableAssert extends AbstractAssert<TieredTableAssert, TieredTable> {
    private ProofReport report;

    TieredTableAssert(TieredTable actual) {
        super(actual, TieredTableAssert.class);
    }

    /**
     * Once tiering has caught up, the lake snapshot holds exactly what Fluss's log holds up to it,
     * the union read the same, each key once in every snapshot read (see {@link TieredTable#audit}).
     */
    public TieredTableAssert tiersConsistently() {
        isNotNull();
        try {
            report = actual.audit();
        } catch (TierproofException e) {
            failWithMessage("%s did not tier: %s", actual, e.getMessage());
        }
        if (!report.consistent()) {
            failWithMessage("%s does not tier consistently:%n%s%n%s", actual, String.join("\n", report.details()),
                    report.summary());
        }
        return this;
    }

    /** The last audit's report ({@link #tiersConsistently} first), for assertions of the test's own. */
    public ProofReport report() {
        if (report == null) {
            throw new IllegalStateException("call tiersConsistently() first");
        }
        return report;
    }
}
