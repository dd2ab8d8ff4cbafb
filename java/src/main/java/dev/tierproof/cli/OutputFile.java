package dev.tierproof.cli;

import dev.tierproof.run.IoMessages;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;

/**
 * A file a command will write (a report, a page), checked before the run starts: it is not a
 * directory, not one of the run's inputs, and its directory can be made and written. Writing it
 * at the end never changes the run's exit status; a failure says where the file could not go.
 */
final class OutputFile {
    private final String option;
    private final Path file;

    private OutputFile(String option, Path file) {
        this.option = option;
        this.file = file;
    }

    /** Checks {@code file} (given as {@code option}) now; null stays null. */
    static OutputFile check(String option, Path file, List<Path> inputs) {
        if (file == null) {
            return null;
        }
        Path target = file.toAbsolutePath().normalize();
        for (Path in : inputs) {
            if (in != null && sameFile(target, in.toAbsolutePath().normalize())) {
                throw new IllegalArgumentException(option + " " + file + " is also an input of this run; it would be"
                        + " overwritten: choose another " + option);
            }
        }
        if (Files.isDirectory(target)) {
            throw new IllegalArgumentException(option + " " + file + " is a directory, not a file");
        }
        try {
            Path parent = target.getParent();
            if (parent != null) {
                if (Files.exists(parent, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(parent)) {
                    throw new IllegalArgumentException(option + " " + file + ": " + parent + " is a file, not a directory");
                }
                Files.createDirectories(parent);
            }
            boolean existed = Files.exists(target);
            // Opening for append proves it can be written without touching what it holds.
            Files.newOutputStream(target, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND).close();
            if (!existed) {
                Files.delete(target);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be written: " + IoMessages.of(e), e);
        }
        return new OutputFile(option, target);
    }

    Path path() {
        return file;
    }

    /** True when the file is to be an HTML page ({@code .html}), not JSON. */
    boolean html() {
        return file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".html");
    }

    /** Writes {@code text}; returns false (after saying why on {@code err}) when it cannot. */
    boolean write(String text, PrintStream err) {
        try {
            Files.writeString(file, text);
            return true;
        } catch (IOException | RuntimeException e) {
            err.println("tierproof: " + option + " " + file + " could not be written: "
                    + (e instanceof IOException io ? IoMessages.of(io) : e.getMessage()));
            return false;
        }
    }

    private static boolean sameFile(Path a, Path b) {
        try {
            return a.equals(b) || (Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b));
        } catch (IOException e) {
            return false;
        }
    }
}
