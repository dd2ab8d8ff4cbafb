package dev.tierproof.junit;

/**
 * Entry point of tierproof's AssertJ assertions: {@code assertThat(STREAMHOUSE.table("fluss.orders"))
 * .tiersConsistently()}.
 */
public final class TierproofAssertions {
    private TierproofAssertions() {}

    public static TieredTableAssert assertThat(TieredTable actual) {
        return new TieredTableAssert(actual);
    }
}
