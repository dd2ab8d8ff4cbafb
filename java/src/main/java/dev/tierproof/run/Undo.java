package dev.tierproof.run;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * What a run created in a place it does not own (a table and database in a user's warehouse),
 * with how to remove each. A run that fails or is interrupted undoes them, newest first, so that a
 * half-written table never stays behind; a run that completes keeps them ({@link #keep()}).
 */
public final class Undo {
    /** One thing created, and how to remove it. */
    public interface Action {
        void run() throws Exception;
    }

    private record Entry(String what, Action action) {}

    private final Deque<Entry> entries = new ArrayDeque<>();

    /** Records that {@code what} (e.g. {@code table default.accounts in /wh}) was created. */
    public synchronized void created(String what, Action remove) {
        entries.push(new Entry(what, remove));
    }

    /** The run completed: what it created stays. */
    public synchronized void keep() {
        entries.clear();
    }

    /** Removes everything recorded, newest first; returns a line per thing removed or not. */
    public synchronized List<String> undoAll() {
        List<String> lines = new ArrayList<>();
        while (!entries.isEmpty()) {
            Entry e = entries.pop();
            try {
                e.action().run();
                lines.add("removed " + e.what() + " (created by this run)");
            } catch (Exception ex) {
                lines.add("could not remove " + e.what() + ": " + Steps.rootMessage(ex));
            }
        }
        return lines;
    }
}
