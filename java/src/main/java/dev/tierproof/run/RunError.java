package dev.tierproof.run;

import dev.tierproof.core.TierproofException;

/**
 * tierproof's own part of a run failed (a fault it could not make, a file of its own it could not
 * move): an error of the run, never a finding about the servers, and never shrunk as a
 * counterexample. Where a server's own behaviour failed the run, that is a finding, not this.
 */
public class RunError extends TierproofException {
    public RunError(String message) {
        super(message);
    }

    public RunError(String message, Throwable cause) {
        super(message, cause);
    }
}
