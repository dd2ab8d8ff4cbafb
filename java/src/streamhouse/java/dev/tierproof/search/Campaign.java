package dev.tierproof.search;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import static dev.tierproof.flink.Statements.millisSince;

import dev.tierproof.core.TierproofException;
import dev.tierproof.core.WorkloadCoverage;
import dev.tierproof.run.IoMessages;
import dev.tierproof.run.Steps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A search that goes on past what it finds, for a time and at most a number of trials: each
 * failing trial gets its {@link Signature}; a new one is shrunk once and its reproducer written, a
 * known one is counted as a hit. Where the campaign stands is written after every trial, so one
 * that was stopped (Ctrl-C, a reboot) goes on from there when run again with the same settings.
 */
public final class Campaign {
    /** The state file in the campaign's directory. */
    public static final String STATE = "campaign.json";

    /**
     * One distinct finding.
     *
     * @param number 1, 2, ... in the order found
     * @param firstTrial the trial (1-based) that found it
     * @param firstSeenMillis how long into the campaign
     * @param hits how many trials came out with its signature
     * @param reproducer its reproducer's directory, inside the campaign's
     * @param cutShort whether its shrinking stopped when its share of the campaign's time ran out: the
     *     reproducer fails, but may not be the smallest case
     * @param shrunkSignature the signature of its shrunk case (null: a campaign of an older tierproof)
     * @param seenAs other signatures of trials whose case shrank to this one: later trials with
     *     them are hits, not shrunk again
     */
    public record Finding(int number, String signature, int firstTrial, long firstSeenMillis, int hits,
            String reproducer, boolean cutShort, String shrunkSignature, List<String> seenAs) {
        public Finding {
            seenAs = seenAs == null ? List.of() : List.copyOf(seenAs);
        }

        Finding hit() {
            return new Finding(number, signature, firstTrial, firstSeenMillis, hits + 1, reproducer, cutShort,
                    shrunkSignature, seenAs);
        }

        /** A hit that came as another signature, whose case shrank to this one's. */
        Finding hitAs(String other) {
            List<String> more = new ArrayList<>(seenAs);
            if (!other.equals(signature) && !more.contains(other)) {
                more.add(other);
            }
            return new Finding(number, signature, firstTrial, firstSeenMillis, hits + 1, reproducer, cutShort,
                    shrunkSignature, more);
        }

        boolean matches(String trialSignature) {
            return signature.equals(trialSignature) || seenAs.contains(trialSignature);
        }
    }

    /**
     * One trial as it came out: its number (1-based), its outcome in words, whether it is a
     * counterexample, when it ended and how long it took.
     */
    public record TrialRecord(int trial, String outcome, boolean failed, long endedMillis, long millis) {}

    /**
     * Where a campaign stands.
     *
     * @param settings the search's settings in words: a campaign goes on only with the same
     * @param nextTrial the next trial's index (0-based)
     * @param elapsedMillis time spent so far, over every run of it
     * @param coverage how often each fault kind, producer setting and verdict came up
     */
    public record State(String settings, int nextTrial, long elapsedMillis, int proofs, List<TrialRecord> trials,
            List<Finding> findings, Map<String, Integer> coverage) {
        static State fresh(String settings) {
            return new State(settings, 0, 0, 0, List.of(), List.of(), Map.of());
        }
    }

    /** Writes a new finding's reproducer; returns its directory's name. */
    public interface Reproducers {
        String write(int number, String signature, CounterexampleSearch.Result shrunk);
    }

    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private Campaign() {}

    /**
     * The state in {@code dir}, or a fresh one; one of other settings is refused, naming both.
     */
    public static State resume(Path dir, String settings) {
        Path file = dir.resolve(STATE);
        if (!Files.exists(file)) {
            return State.fresh(settings);
        }
        State state;
        try {
            state = JSON.readValue(file.toFile(), State.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("--out " + file + " cannot be read as a campaign: " + IoMessages.of(e), e);
        }
        if (!settings.equals(state.settings())) {
            throw new IllegalArgumentException("--out " + dir + " holds a campaign of other settings (" + state.settings()
                    + "), not " + settings + ": give another --out, or the same settings to go on with it");
        }
        return state;
    }

    /**
     * Runs trials from where {@code state} stands until {@code budget} of campaign time has passed
     * or the search's trials are done, writing the state to {@code dir} after each.
     */
    public static State run(CounterexampleSearch.Prover prover, CounterexampleSearch.Config cfg, Steps steps,
            State state, Duration budget, Path dir, Reproducers reproducers) {
        try (prover) { // what the trials shared stops with the campaign
            return campaign(prover, cfg, steps, state, budget, dir, reproducers);
        }
    }

    private static State campaign(CounterexampleSearch.Prover prover, CounterexampleSearch.Config cfg, Steps steps,
            State state, Duration budget, Path dir, Reproducers reproducers) {
        CounterexampleSearch search = new CounterexampleSearch(prover, cfg, steps);
        long started = System.nanoTime();
        long before = state.elapsedMillis();
        List<TrialRecord> trials = new ArrayList<>(state.trials());
        List<Finding> findings = new ArrayList<>(state.findings());
        Map<String, Integer> coverage = new TreeMap<>(state.coverage());
        int index = state.nextTrial();
        int proofsBefore = state.proofs();
        while (index < cfg.trials() && before + millisSince(started) < budget.toMillis()) {
            long trialStart = System.nanoTime();
            CounterexampleSearch.Trial trial = search.trial(index);
            count(coverage, trial, cfg);
            if (trial.outcome().fails()) {
                // A finding's shrinking stops at its share of the campaign's time, or at the campaign's end: one
                // finding whose proofs wait out their deadlines must not take the hour that was meant to explore.
                long shrinkStart = System.nanoTime();
                long share = shrinkShare(budget).toMillis();
                java.util.function.BooleanSupplier outOfTime = () -> before + millisSince(started) >= budget.toMillis()
                        || millisSince(shrinkStart) >= share;
                found(search, trial, findings, before + millisSince(started), reproducers, steps, outOfTime);
            } else {
                trial.workload().close();
            }
            index++;
            trials.add(new TrialRecord(index, trial.outcome().describe(), trial.outcome().fails(),
                    before + millisSince(started), millisSince(trialStart)));
            state = new State(state.settings(), index, before + millisSince(started), proofsBefore + search.proofs(),
                    trials, findings, coverage);
            save(dir, state);
        }
        return state;
    }

    /**
     * How long one finding's shrinking may take: a sixth of the campaign's time, at least two
     * minutes (a 60-minute campaign: 10 minutes; a 10-minute one: 2).
     */
    static Duration shrinkShare(Duration budget) {
        Duration sixth = budget.dividedBy(6);
        return sixth.compareTo(Duration.ofMinutes(2)) < 0 ? Duration.ofMinutes(2) : sixth;
    }

    /** A failing trial: a hit of a finding already seen, or a new one, shrunk and written. */
    private static void found(CounterexampleSearch search, CounterexampleSearch.Trial trial, List<Finding> findings,
            long now, Reproducers reproducers, Steps steps, java.util.function.BooleanSupplier outOfTime) {
        String signature = Signature.of(trial.outcome(), trial.conditions());
        for (int i = 0; i < findings.size(); i++) {
            if (findings.get(i).matches(signature)) {
                findings.set(i, findings.get(i).hit());
                trial.workload().close();
                steps.progress().step("  a hit of finding " + findings.get(i).number() + " (" + signature + ")");
                return;
            }
        }
        steps.progress().step("  a new finding (" + signature + "): shrinking " + trial.workload().operations()
                + " operations");
        // Shrinking stops with the campaign's time: the campaign ends when asked, with what it has.
        CounterexampleSearch.Result shrunk = search.shrink(trial, outOfTime);
        String shrunkSignature = shrunk.minimal() == null ? null
                : Signature.of(shrunk.minimal(), shrunk.minimalConditions());
        // One failure can show as several signatures in a big trial (a read that errors, rows extra);
        // shrunk to the same case, it is the same finding: a hit, its reproducer written once.
        for (int i = 0; i < findings.size() && shrunkSignature != null && !shrunk.cutShort(); i++) {
            if (shrunkSignature.equals(findings.get(i).shrunkSignature())) {
                findings.set(i, findings.get(i).hitAs(signature));
                steps.progress().step("  it shrank to finding " + findings.get(i).number() + "'s case ("
                        + shrunkSignature + "): a hit of it; trials that fail as " + signature + " are too");
                return;
            }
        }
        int number = findings.size() + 1;
        String reproducer = reproducers.write(number, signature, shrunk);
        findings.add(new Finding(number, signature, trial.index() + 1, now, 1, reproducer, shrunk.cutShort(),
                shrunkSignature, List.of()));
        steps.progress().step("  finding " + number + (shrunk.cutShort() ? " cut short at " : " shrunk to ")
                + shrunk.minimalOperations() + " operations" + (shrunk.cutShort()
                        ? " (its share of the campaign's time ran out; not minimal)" : "") + ": " + reproducer);
    }

    /**
     * What the trial exercised: its table and workload (in the core's words: kind, key, engine,
     * partitions, buckets, types, options, deletes and NULLs), the values of the table options it
     * drew, its fault kinds, its producer settings, its verdict.
     */
    private static void count(Map<String, Integer> coverage, CounterexampleSearch.Trial trial,
            CounterexampleSearch.Config cfg) {
        trial.tableOptions(cfg).forEach((k, v) -> coverage.merge("table setting " + k + "=" + v, 1, Integer::sum));
        WorkloadCoverage.of(trial.workload()).forEach(c -> coverage.merge(c, 1, Integer::sum));
        trial.conditions().faults().forEach(f -> coverage.merge("fault " + f.kind().text(), 1, Integer::sum));
        trial.conditions().producerOptions().keySet().forEach(k -> coverage.merge("producer " + k, 1, Integer::sum));
        coverage.merge("rounds " + trial.conditions().rounds(), 1, Integer::sum);
        coverage.merge("writers " + trial.conditions().writers(), 1, Integer::sum);
        if (cfg.hotKeys()) {
            coverage.merge("hot key " + CounterexampleSearch.hotKeysOf(cfg.seed() + trial.index()) + "%", 1,
                    Integer::sum);
        }
        String outcome = trial.outcome().describe();
        coverage.merge("outcome " + outcome.split("[ :(]")[0], 1, Integer::sum);
    }

    /** The state, replacing the file at once (a reader never sees half of it). */
    static void save(Path dir, State state) {
        Path file = dir.resolve(STATE);
        Path next = dir.resolve(STATE + ".next");
        try {
            Files.createDirectories(dir);
            JSON.writeValue(next.toFile(), state);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new TierproofException("--out " + file + " cannot be written: " + IoMessages.of(e), e);
        }
    }

    /** The state as JSON, as the state file holds it. */
    public static String json(State state) {
        try {
            return JSON.writeValueAsString(state);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
