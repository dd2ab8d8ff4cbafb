package dev.tierproof.run;

import dev.tierproof.core.TierproofException;

/** A step ran out of its deadline or of the run's budget, and was cancelled. */
public class DeadlineExceeded extends TierproofException {
    public DeadlineExceeded(String message) {
        super(message);
    }
}
