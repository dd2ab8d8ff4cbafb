package dev.tierproof.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML reports as a browser shows them: headless Chromium loads each page from a file, and
 * its DOM holds the verdict's heading, with no console message (the page has no script to log or
 * fail). Each page and a screenshot of it are kept under target/html-report/ for people to look at. Never
 * skipped: without /usr/bin/chromium it fails, naming it (./build.sh installs it).
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class HtmlReportInBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    /** Where the screenshots stay after the test (Maven's build directory: surefire runs in java/). */
    static final Path SCREENSHOTS = Path.of("target", "html-report");
    static final long TIMEOUT_SECONDS = 90;

    @TempDir
    Path dir;

    @Test
    void aConsistentPageLoadsWithItsVerdictFirst() throws Exception {
        check("consistent", HtmlReportTest.consistent(), "CONSISTENT");
    }

    @Test
    void anInconsistentPageLoadsWithItsVerdictFirst() throws Exception {
        check("inconsistent", HtmlReportTest.inconsistent(), "INCONSISTENT");
    }

    @Test
    void aStalledPageLoadsWithItsVerdictFirst() throws Exception {
        check("stalled", HtmlReportTest.stalled(), "STALLED");
    }

    /** A search campaign's page: its word first, the trials plotted over time, the findings and coverage. */
    @Test
    void aCampaignPageLoadsWithWhatItFoundFirst() throws Exception {
        String html = CampaignPage.html("--streamhouse seed 1, 8 operations over 3 keys", 600_000,
                java.util.List.of(new CampaignPage.Trial(60_000, false), new CampaignPage.Trial(150_000, true),
                        new CampaignPage.Trial(290_000, true), new CampaignPage.Trial(420_000, false)),
                java.util.List.of(new CampaignPage.Finding(1, "INCONSISTENT; fluss_union extra", 2, 150_000, 2,
                        "/tmp/campaign/finding-1")),
                java.util.Map.of("fault restart-tablet", 3, "outcome INCONSISTENT", 2, "outcome CONSISTENT", 2));
        assertThat(html).contains("trials failing", "finding 1", "fault restart-tablet", "75 %");
        check("campaign", html, "1 DISTINCT FINDING");
    }

    private void check(String name, ProofReport report, String word) throws Exception {
        check(name, report.html("DDL (Fluss)"), word);
    }

    private void check(String name, String html, String word) throws Exception {
        if (!Files.isExecutable(CHROMIUM)) {
            fail("headless Chromium is missing: " + CHROMIUM + " (Debian: apt-get update && apt-get install -y"
                    + " chromium)");
        }
        Path page = dir.resolve(name + ".html");
        Files.writeString(page, html);

        Browser dom = chromium(page, "--dump-dom");
        assertThat(dom.out()).as("the DOM Chromium rendered").contains("<h1>" + word + "</h1>");
        // The verdict comes before everything else the page says.
        assertThat(dom.out().indexOf("<h1>")).isLessThan(dom.out().indexOf("<section"));
        assertThat(consoleLines(dom.err())).as("Chromium's console messages for %s", page).isEmpty();

        Files.createDirectories(SCREENSHOTS);
        Files.copy(page, SCREENSHOTS.resolve(page.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Path png = SCREENSHOTS.resolve(name + ".png").toAbsolutePath();
        Files.deleteIfExists(png);
        Browser shot = chromium(page, "--screenshot=" + png, "--window-size=1200,1600");
        assertThat(png).as("the screenshot (Chromium said: %s)", shot.err()).exists();
        assertThat(Files.readAllBytes(png)).startsWith(0x89, 'P', 'N', 'G');
        assertThat(consoleLines(shot.err())).isEmpty();
    }

    /** What Chromium wrote to stdout (the DOM, for --dump-dom) and stderr (its log, console included). */
    record Browser(String out, String err) {}

    /** Runs headless Chromium on {@code page} with a fresh profile, bounded in time; its log on stderr. */
    private Browser chromium(Path page, String... what) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(dir, "profile");
        List<String> command = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                "--enable-logging=stderr", "--v=0"));
        command.addAll(List.of(what));
        command.add(page.toUri().toString());
        Path out = dir.resolve("chromium.out");
        Path err = dir.resolve("chromium.err");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor();
            fail("Chromium did not finish with " + page + " in " + TIMEOUT_SECONDS + " s: " + Files.readString(err));
        }
        Browser b = new Browser(Files.readString(out), Files.readString(err));
        assertThat(p.exitValue()).as("Chromium's exit status; it said: %s", b.err()).isZero();
        return b;
    }

    /**
     * The page's console messages in Chromium's log ({@code [..:INFO:CONSOLE(1)] "...", source: ...}):
     * script errors land there, so none means the page ran no script that failed.
     */
    static List<String> consoleLines(String log) {
        return log.lines().filter(l -> l.contains(":CONSOLE")).toList();
    }
}
