package dev.tierproof.cli;

import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** A command whose part this build lacks: it says which part and how to get it, and fails. */
@Command(description = "Needs a part this build lacks: ./build.sh run fetches and builds it the first time.")
final class MissingPart implements Callable<Integer> {
    private final String command;
    private final String part;

    @Spec
    CommandSpec spec;

    @Unmatched
    List<String> ignored;

    MissingPart(String command, String part) {
        this.command = command;
        this.part = part;
    }

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("tierproof: " + command + " needs tierproof's " + part + " part, which this"
                + " build lacks: ./build.sh run " + command + " fetches and builds it (once)");
        return Main.FAILED;
    }
}
