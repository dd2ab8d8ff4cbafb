package dev.tierproof.support;

import dev.tierproof.paimon.FlinkEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** One Flink MiniCluster for all the tests of a class, stopped after them. */
public abstract class SharedEngine {
    protected static FlinkEngine engine;

    @BeforeAll
    static void startEngine() {
        engine = FlinkEngine.start(4);
    }

    @AfterAll
    static void stopEngine() {
        engine.close();
    }
}
