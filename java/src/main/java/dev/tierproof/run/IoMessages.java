package dev.tierproof.run;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** Java's file errors say only the path for the common causes; these name the cause too. */
public final class IoMessages {
    private IoMessages() {}

    /** {@code file: cause}, or the cause alone when the exception names no file. */
    public static String of(IOException e) {
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        String cause = cause(e);
        return file == null || cause.startsWith(file) ? cause : file + ": " + cause;
    }

    /** Why the operation failed, without the file. */
    public static String cause(IOException e) {
        String cause;
        if (e instanceof NoSuchFileException) {
            cause = "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            cause = "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            cause = "a file is in the way (it already exists)";
        } else if (e instanceof NotDirectoryException) {
            cause = "not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            cause = "directory not empty";
        } else if (e instanceof CharacterCodingException) {
            cause = "not valid UTF-8";
        } else if (e instanceof FileSystemException f && f.getReason() != null) {
            cause = f.getReason();
        } else {
            return String.valueOf(e.getMessage());
        }
        return cause;
    }
}
