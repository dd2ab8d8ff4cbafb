package dev.tierproof.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tierproof.core.TierproofException;
import java.io.IOException;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** A failure's causes, said once each under its line: what an engine's wrapper hides. */
class FailureCausesTest {
    @Test
    void aWrappedFailureShowsWhatLiesUnderIt() {
        Exception root = new ConnectException("Connection refused: 127.0.0.1:9000");
        Exception io = new IOException("Call From host to 127.0.0.1:9000 failed\non connection exception", root);
        Exception top = new RuntimeException("Unable to create catalog 'tierproof_paimon'.", io);
        assertThat(Main.causes(top)).containsExactly(
                "java.io.IOException: Call From host to 127.0.0.1:9000 failed on connection exception",
                "java.net.ConnectException: Connection refused: 127.0.0.1:9000");
    }

    @Test
    void aCauseTheMessageAlreadySaysIsNotRepeated() {
        Exception root = new IOException("disk full");
        Exception top = new TierproofException("could not write the report: disk full", root);
        assertThat(Main.causes(top)).isEmpty();
        assertThat(Main.causes(new IllegalStateException("alone"))).isEmpty();
    }

    @Test
    void aLongChainStopsAtFive() {
        Throwable t = new IOException("0");
        for (int i = 1; i < 9; i++) {
            t = new IOException("level " + i, t);
        }
        assertThat(Main.causes(t)).hasSize(5).first().isEqualTo("java.io.IOException: level 7");
    }
}
