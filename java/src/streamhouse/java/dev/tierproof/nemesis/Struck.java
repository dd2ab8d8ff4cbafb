package dev.tierproof.nemesis;

/**
 * What a fault struck, for the report ({@code tablet server 1, the leader of bucket 0}), and how
 * it heals: a restart is healed when it returns, a pause when the server is continued.
 *
 * @param what whom it struck, in words; empty when the kind says it all
 * @param heal heals it (at once for a fault that is over when it returns); safe to run twice
 */
public record Struck(String what, Runnable heal) {
    /** A fault that was over when it returned. */
    static Struck over(String what) {
        return new Struck(what, () -> {});
    }
}
