package dev.tierproof.cli;

import java.util.concurrent.Callable;

/** A subcommand: it gets the streams and run directory of the {@link Main} that runs it. */
abstract class TierproofCommand implements Callable<Integer> {
    Main main;
}
