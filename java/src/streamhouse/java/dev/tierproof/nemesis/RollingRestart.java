package dev.tierproof.nemesis;

import java.util.ArrayList;
import java.util.List;

/**
 * Every tablet server in turn stopped as an upgrade stops it (a controlled shutdown: its
 * leaderships handed over first) and started again with its data, the next one only once every
 * bucket the run writes is led and in sync again (what an operator waits for). A server whose
 * buckets do not come back in sync within the bound is noted, and the roll goes on, as an
 * impatient operator's would: the proof's availability check then judges the end state.
 */
final class RollingRestart implements Nemesis {
    @Override
    public Struck strike(Target target) {
        Servers servers = target.servers();
        int count = servers.tabletServerCount();
        List<String> steps = new ArrayList<>();
        for (int id = 0; id < count; id++) {
            long t = System.nanoTime();
            servers.rollTabletServer(id);
            long restarted = (System.nanoTime() - t) / 1_000_000;
            steps.add(id + " (" + restarted + " ms, " + target.roles().awaitInSync() + ")");
        }
        List<String> what = new ArrayList<>();
        what.add("tablet servers in turn: " + String.join(", ", steps));
        what.addAll(servers.takeNotes());
        return Struck.over(String.join("; ", what));
    }
}
