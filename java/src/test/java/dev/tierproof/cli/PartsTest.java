package dev.tierproof.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * tierproof's parts: the core (src/main) builds without Fluss, as ./build.sh's first run of prove
 * builds it, and the streamhouse part's commands are exactly those the parts file names.
 */
@Tag("quick") // no servers: ./build.sh test --quick runs it
class PartsTest {
    @TempDir
    Path tmp;

    @Test
    void thePartsFileNamesExactlyTheStreamhousePartsCommands() {
        assertThat(Parts.declared()).containsOnlyKeys("streamhouse");
        assertThat(Parts.declared().get("streamhouse"))
                .containsExactlyInAnyOrderElementsOf(Parts.loaded().keySet())
                .contains("streamhouse", "cluster");
        // In a build with the part, each is the real command (its own options), in the file's order.
        CommandLine cli = Main.parserOnly();
        assertThat(cli.getSubcommands().keySet()).containsSubsequence("prove", "streamhouse", "matrix", "search",
                "audit", "cluster", "bench", "ddl", "help");
        assertThat(cli.getSubcommands().get("streamhouse").getCommandSpec().findOption("--fluss")).isNotNull();
    }

    @Test
    void aCommandWhosePartTheBuildLacksSaysHowToGetIt() {
        StringWriter err = new StringWriter();
        int status = new CommandLine(new MissingPart("streamhouse", "streamhouse")).setErr(new PrintWriter(err))
                .execute("--random", "5");
        assertThat(status).isEqualTo(Main.FAILED);
        assertThat(err.toString()).contains("streamhouse needs tierproof's streamhouse part")
                .contains("./build.sh run streamhouse fetches and builds it");
    }

    /** The core's sources compile against the class path without Fluss, ZooKeeper and Curator. */
    @Test
    void theCoreBuildsWithoutFluss() throws IOException {
        List<File> sources;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).map(Path::toFile).toList();
        }
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(e -> e.endsWith(".jar"))
                .filter(e -> !e.contains("/org/apache/fluss/") && !e.contains("/org/apache/curator/")
                        && !e.contains("/org/apache/zookeeper/"))
                .collect(Collectors.joining(File.pathSeparator));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter diagnostics = new StringWriter();
        try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, StandardCharsets.UTF_8)) {
            boolean ok = javac.getTask(diagnostics, files, null,
                    List.of("--release", "17", "-proc:none", "-nowarn", "-classpath", classPath, "-d", tmp.toString()),
                    null, files.getJavaFileObjectsFromFiles(sources)).call();
            assertThat(ok).as("src/main/java must build without the streamhouse part:\n" + diagnostics).isTrue();
        }
        assertThat(tmp.resolve("dev/tierproof/cli/Main.class")).exists();
        assertThat(tmp.resolve("dev/tierproof/cli/StreamhouseCommand.class")).doesNotExist();
    }
}
