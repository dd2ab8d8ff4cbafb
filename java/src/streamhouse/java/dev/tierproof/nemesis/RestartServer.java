package dev.tierproof.nemesis;

import java.util.function.Consumer;

/** A server that every cluster tierproof starts can stop and start again (the coordinator, ZooKeeper). */
final class RestartServer implements Nemesis {
    private final Consumer<Servers> restart;

    RestartServer(Consumer<Servers> restart) {
        this.restart = restart;
    }

    @Override
    public Struck strike(Target target) {
        restart.accept(target.servers());
        return Struck.over("");
    }
}
