package dev.tierproof.core;

/** A failure that is not the caller's bad input: a native fault, an engine error, a timeout. */
public class TierproofException extends RuntimeException {
    public TierproofException(String message) {
        super(message);
    }

    public TierproofException(String message, Throwable cause) {
        super(message, cause);
    }
}
