package dev.tierproof.cli;

import java.io.PrintStream;
import java.util.List;

/** {@code tierproof streamhouse}: see {@link dev.tierproof.fluss.StreamhouseProof}. */
final class StreamhouseCommand {
    private StreamhouseCommand() {}

    static int run(List<String> words, PrintStream out, PrintStream err) {
        throw new IllegalArgumentException("streamhouse is not built yet");
    }
}
