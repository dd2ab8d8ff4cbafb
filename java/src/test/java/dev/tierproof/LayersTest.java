package dev.tierproof;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The house's floors: a package imports only packages on floors below its own, never one beside or
 * above it, so there is no import circle between packages either. Each package's package-info.java
 * says what lives there; docs/architecture.md draws the floors.
 */
@Tag("quick")
class LayersTest {
    private static final String ROOT = "dev.tierproof";

    /** Lowest first. A package on floor n may import the packages of floors 0..n-1 only. */
    static final List<Set<String>> FLOORS = List.of(
            Set.of("core"),
            Set.of("util", "udf", "report"),
            Set.of("run"),
            Set.of("flink"),
            Set.of("paimon"),
            Set.of("nemesis"),
            Set.of("fluss"),
            Set.of("deploy", "proof", "audit"),
            Set.of("matrix", "search"),
            Set.of("bench", "junit"),
            Set.of("cli"));

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(ROOT);
    }

    @Test
    void everyPackageHasAFloor() {
        Set<String> found = new TreeSet<>();
        classes.forEach(c -> found.add(room(c)));
        // The core's packages are in every build; the streamhouse part's when it is built.
        assertThat(found).contains("core", "run", "flink", "paimon", "report", "cli");
        assertThat(found).allSatisfy(room -> assertThat(floor(room)).as("the floor of %s.%s", ROOT, room)
                .isNotNegative());
    }

    @Test
    void noPackageImportsBesideOrAbove() {
        List<String> upward = classes.stream()
                .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                .filter(LayersTest::climbs)
                .map(d -> room(d.getOriginClass()) + " -> " + room(d.getTargetClass()) + ": " + d.getDescription())
                .distinct()
                .sorted()
                .toList();
        assertThat(upward).as("imports of a package beside or above the importer's floor").isEmpty();
    }

    @Test
    void aClimbOrASideStepIsSeen() {
        assertThat(climbs("report", "paimon")).as("up").isTrue();
        assertThat(climbs("util", "report")).as("beside").isTrue();
        assertThat(climbs("paimon", "report")).as("down").isFalse();
        assertThat(climbs("core", "core")).as("within").isFalse();
    }

    private static boolean climbs(Dependency d) {
        JavaClass target = d.getTargetClass();
        return target.getPackageName().startsWith(ROOT + ".") && climbs(room(d.getOriginClass()), room(target));
    }

    private static boolean climbs(String from, String to) {
        return !from.equals(to) && floor(to) >= floor(from);
    }

    /** The package under dev.tierproof a class lives in: dev.tierproof.core.verdict is in core. */
    private static String room(JavaClass c) {
        String rest = c.getPackageName().substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    private static int floor(String room) {
        for (int i = 0; i < FLOORS.size(); i++) {
            if (FLOORS.get(i).contains(room)) {
                return i;
            }
        }
        return -1;
    }
}
