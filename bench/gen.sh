#!/usr/bin/env bash
# gen:// read throughput: one thread, 1 MiB positional reads of each data kind (the memory copy it costs).
# Usage: bench/gen.sh [GIB per run, default 8] [RUNS, default 3]
set -euo pipefail
export JAVA_HOME="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
root="$(cd "$(dirname "$0")/.." && pwd)"
module="$root/mover-plugins/mover-plugin-gen"
cd "$root"
if [[ "${BENCH_SKIP_BUILD:-0}" != "1" ]]; then
  ./mvnw -B -q test-compile -pl mover-plugins/mover-plugin-gen -am >&2
fi
exec "$JAVA_HOME/bin/java" -cp "$module/target/classes:$module/target/test-classes:$root/mover-spi/target/classes" \
  io.mover.plugins.gen.bench.GenThroughput "$@"
