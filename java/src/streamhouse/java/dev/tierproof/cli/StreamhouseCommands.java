package dev.tierproof.cli;

import java.util.List;

/** The streamhouse part's commands: everything that runs on Fluss. */
public final class StreamhouseCommands implements CommandPart {
    @Override
    public List<Class<?>> commands() {
        return List.of(StreamhouseCommand.class, MatrixCommand.class, SearchCommand.class, AuditCommand.class,
                ClusterCommand.class, BenchCommand.class);
    }
}
