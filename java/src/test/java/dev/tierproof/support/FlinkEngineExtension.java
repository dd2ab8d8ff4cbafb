package dev.tierproof.support;

import dev.tierproof.flink.FlinkEngine;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One Flink MiniCluster for all the tests of a class, as Paimon's and Fluss's test bases share
 * theirs: {@code @RegisterExtension static final FlinkEngineExtension FLINK = new
 * FlinkEngineExtension(4);} then {@code FLINK.engine()}.
 */
public final class FlinkEngineExtension implements BeforeAllCallback, AfterAllCallback {
    private final int slots;
    private FlinkEngine engine;

    public FlinkEngineExtension(int slots) {
        this.slots = slots;
    }

    public FlinkEngine engine() {
        if (engine == null) {
            throw new IllegalStateException("the engine starts before the class's tests: register the extension"
                    + " on a static field");
        }
        return engine;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        engine = FlinkEngine.start(slots);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (engine != null) {
            engine.close();
            engine = null;
        }
    }
}
