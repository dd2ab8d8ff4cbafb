#!/usr/bin/env bash
# tierproof's one entry point.
#   ./build.sh build                 fetch what is missing, build the Rust core and the Java harness
#   ./build.sh run [command] [opts]  run the CLI (default: the core proof; see ./build.sh run help)
#   ./build.sh test                  every test: Rust (fmt, clippy, unit, integration), pytest, mvn verify
#   ./build.sh bench                 the oracle's criterion benchmark
set -euo pipefail
root=$(cd "$(dirname "$0")" && pwd)
cd "$root"

m2=${MAVEN_REPO:-$HOME/.m2/repository}
pom=java/pom.xml
mvn=(mvn -B -q -Dstyle.color=never -f "$pom")
jar=java/target/tierproof-0.1.0.jar
classpath=java/target/classpath.txt

prop() { sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$pom" | head -n 1; }

# The Flink/Paimon and Fluss parts are pre-fetched by the labs scripts; fetch what is missing.
ensure_fetched() {
  local flink paimon fluss
  flink=$(prop flink.version); paimon=$(prop paimon.version); fluss=$(prop fluss.version)
  [ -s "$m2/org/apache/paimon/paimon-flink-1.20/$paimon/paimon-flink-1.20-$paimon.jar" ] &&
    [ -s "$m2/org/apache/flink/flink-table-planner-loader/$flink/flink-table-planner-loader-$flink.jar" ] ||
    bash labs/fetch_flink.sh
  [ -s "$m2/org/apache/fluss/fluss-server/$fluss/fluss-server-$fluss.jar" ] &&
    [ -s "$m2/org/apache/fluss/fluss-lake-paimon/$fluss/fluss-lake-paimon-$fluss.jar" ] ||
    bash labs/fetch_streamhouse.sh
}

build() {
  ensure_fetched
  echo "build: cargo build --release (Rust core)" >&2
  cargo build --release --lib --quiet
  echo "build: mvn package (Java harness)" >&2
  "${mvn[@]}" -DskipTests -Dcargo.skip=true package
  "${mvn[@]}" dependency:build-classpath -Dmdep.outputFile="$root/$classpath" -Dmdep.includeScope=runtime
}

# Rebuild when anything the jar is made of is newer than it.
stale() {
  [ ! -f "$jar" ] || [ ! -f "$classpath" ] ||
    [ -n "$(find rust java/src java/pom.xml Cargo.toml -newer "$jar" -type f -print -quit)" ]
}

run() {
  if stale; then build; fi
  # shellcheck disable=SC2046
  exec java $(prop jvm.opens) -Xmx4g -cp "$jar:$(cat "$classpath")" dev.tierproof.cli.Main "$@"
}

test_all() {
  ensure_fetched
  echo "test: cargo fmt --check, clippy -D warnings" >&2
  cargo fmt --check
  cargo clippy --all-targets --quiet -- -D warnings
  echo "test: cargo test" >&2
  cargo test --quiet
  echo "test: cargo build --release (for pytest and the JVM)" >&2
  cargo build --release --lib --quiet
  echo "test: pytest" >&2
  python3 -m pytest -q tests/python
  echo "test: mvn verify (JUnit on real Flink, Paimon and Fluss)" >&2
  "${mvn[@]}" -Dcargo.skip=true verify
}

case "${1:-}" in
  build) build ;;
  run) shift; run "$@" ;;
  test) test_all ;;
  bench) cargo bench --bench oracle ;;
  *) echo "usage: ./build.sh build | run [command] [options] | test | bench" >&2; exit 2 ;;
esac
