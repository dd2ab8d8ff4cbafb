package dev.tierproof.cli;

import dev.tierproof.core.TextInput;
import dev.tierproof.run.IoMessages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading the files a user names, with messages that say what is wrong with them. */
final class InputFiles {
    private InputFiles() {}

    /** The bytes of {@code file}, given as {@code option}. */
    static byte[] read(Path file, String option) {
        if (Files.isDirectory(file)) {
            throw new IllegalArgumentException(option + " " + file + " is a directory, not a file");
        }
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + option + " " + file + ": " + IoMessages.cause(e), e);
        }
    }

    /** The text of {@code file}, which must be UTF-8 (an error names the line). */
    static String readText(Path file, String option) {
        return TextInput.utf8(option + " " + file, read(file, option));
    }

}
