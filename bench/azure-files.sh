#!/usr/bin/env bash
# Azure Files, simulated with the File service double (mover-plugin-azure-files test sources): 10 ms per request
# and the share limits of the published azcopy test (20,000 IOPS, 300 MB/s).
#  1. no-change compare of FILES files share to share (listings with attributes, both sides), request counts per file,
#     next to azcopy's way (one property call per file per side) on a sample: the plugin's listings through a Java
#     harness (AzureFilesCompareBench), not mover's command;
#  1b. the real command on the same trees: `mover sync azfiles://benchacct/left azfiles://benchacct/right` against the
#     double as a process, both shares seeded alike (FileServiceMain --seed: FILES files of 1 MiB, PER_DIR per folder,
#     one last-write time), so nothing differs: wall time (JVM start included), the summary, and the requests per
#     file the double counted, by operation. The script fails unless the sync exits 0 and transfers nothing;
#  2. mover copy of COPY_FILES files of 1 MiB from local disk to a share, MB/s against the 300 MB/s limit;
#  3. the same copy with the IOPS limit lowered to THROTTLED_IOPS so that 503 ServerBusy is answered: files failed.
# Each copy also reports the CPU seconds per GiB of mover and of the double: on a small machine both share the cores,
# and a copy limited by the double's CPU is not mover's limit.
# The double is a test process, tuned so that it takes little of the machine: C1 only (C2 compiling the double cost
# 5 of its 13 CPU seconds per 2 GiB) and its file content on tmpfs (/dev/shm) when it has room (ext4 and the write
# back of what the double stores are not the service's costs on our machine). DOUBLE_DATA overrides the place.
# For the copies it keeps no content at all (--keep-content false: bodies are read, checked and paced, not stored):
# storing on tmpfs cost the double 2 of its 4.4 CPU s/GiB, a cost the service pays on its own machines, not the
# client's cores. DOUBLE_KEEP_CONTENT=true stores it as before.
# CONCURRENCY empty (the default) gives no --concurrency: mover runs what the share suggests (64, its max-concurrency;
# the summary's "Concurrency:" line says so); CONCURRENCY=16 measures the old fixed default.
# Usage: bench/azure-files.sh   (FILES=100000 PER_DIR=100 COPY_FILES=10000 THROTTLED_IOPS=400 CONCURRENCY= RUNS=3
#        PARTS="1 1b 2 3": the parts to run)
source "$(dirname "$0")/lib.sh"
FILES="${FILES:-100000}"; PER_DIR="${PER_DIR:-100}"; COPY_FILES="${COPY_FILES:-10000}"; THROTTLED_IOPS="${THROTTLED_IOPS:-400}"
CONCURRENCY="${CONCURRENCY:-}"; PARTS="${PARTS:-1 1b 2 3}"
part() { [[ " $PARTS " == *" $1 "* ]]; }
concurrency_flag=(); [[ -n "$CONCURRENCY" ]] && concurrency_flag=(--concurrency "$CONCURRENCY")
need python3 curl
build_mover
module="$BENCH_ROOT/mover-plugins/mover-plugin-azure-files"
(cd "$BENCH_ROOT" && ./mvnw -B -q -o test-compile -pl mover-plugins/mover-plugin-azure-files -am > /dev/null &&
  ./mvnw -B -q -o dependency:build-classpath -pl mover-plugins/mover-plugin-azure-files -Dmdep.includeScope=test -Dmdep.outputFile="$BENCH_DIR/azure.cp" > /dev/null)
CP="$module/target/classes:$module/target/test-classes:$(cat "$BENCH_DIR/azure.cp")"
mkdir -p "$BENCH_DIR"

cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15) / hz}' "/proc/$1/stat"; }
KEY=$(printf 'bench-account-key-0123456789abcdef' | base64 -w0)
sync_run() { # mover sync of two equal seeded shares: nothing may be copied
  local log="$BENCH_DIR/azure-sync-service.log" seed="$FILES:$PER_DIR"
  # seeded files hold no content (Node sizes only), so the double needs no data room; -Xmx for 2 x FILES nodes
  "$JAVA_HOME/bin/java" -Xmx2g -XX:TieredStopAtLevel=1 -cp "$CP" io.mover.plugins.azurefiles.fileservice.FileServiceMain \
    --account "benchacct=$KEY" --share benchacct/left --share benchacct/right --seed "benchacct/left:$seed" --seed "benchacct/right:$seed" \
    --latency-ms 10 --iops 20000 > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 1200); do grep -q READY "$log" && break; kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
  local base; base=$(sed -n 's/^READY //p' "$log")
  [[ -n "$base" ]] || { echo "bench: the double did not start:" >&2; cat "$log" >&2; kill "$pid" 2> /dev/null; exit 1; }
  local status double_start double_end
  double_start=$(cpu_seconds "$pid")
  AZURE_STORAGE_KEY="$KEY" /usr/bin/time -f '%e %U %S' -o "$BENCH_DIR/azure-sync.time" "$MOVER" sync azfiles://benchacct/left azfiles://benchacct/right \
    --source-config "endpoint=$base/benchacct" --dest-config "endpoint=$base/benchacct" --output json \
    > "$BENCH_DIR/azure-sync.out" 2> "$BENCH_DIR/azure-sync.err" && status=0 || status=$?
  double_end=$(cpu_seconds "$pid")
  local stats; stats=$(curl -s "$base/_double/stats")
  kill "$pid"; wait "$pid" 2> /dev/null || true
  python3 - "$status" "$FILES" "$(tail -1 "$BENCH_DIR/azure-sync.time")" "$(tail -1 "$BENCH_DIR/azure-sync.out")" "$stats" \
    "$(awk -v a="$double_start" -v b="$double_end" 'BEGIN {print b - a}')" <<'PY' || { tail -5 "$BENCH_DIR/azure-sync.err" >&2; exit 1; }
import json, sys
status, files, (wall, user, system), stats = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3].split(), sys.argv[5]
counts = dict((l.split("\t")[0], int(l.split("\t")[1])) for l in stats.splitlines() if "\t" in l)
try:
    summary = json.loads(sys.argv[4])
except ValueError:
    summary = {}
sync = summary.get("sync") or {}
requests, listings = counts.get("all", 0), counts.get("GET restype=directory comp=list", 0)
others = {k: v for k, v in counts.items() if k not in ("all", "GET restype=directory comp=list") and not k.startswith("bandwidth-") and v}
print(f"mover sync (no change): exit {status}, {float(wall):.1f} s wall (JVM start included; job {summary.get('elapsedSeconds') or 0:.2f} s, "
      f"compare {sync.get('compareSeconds') or 0:.2f} s); CPU: mover {float(user) + float(system):.1f} s, "
      f"the double {float(sys.argv[6]):.1f} s; scanned {sync.get('sourceFilesScanned')} / "
      f"{sync.get('destinationFilesScanned')}, unchanged {sync.get('unchanged')}, copied {sync.get('copyTransfers')}, "
      f"transferred {summary.get('filesTransferred')}, deleted {sync.get('deletions')}, attributes set {sync.get('attributesUpdated')}")
print(f"  requests {requests} ({requests / files:.5f} per file), listings {listings} ({listings / files:.5f} per file); "
      f"other requests: {others or 'none'}")
# the target is a sync that copies nothing: anything else is a failure of the bench, not a figure
if status != 0 or summary.get("filesTransferred") != 0 or sync.get("copyTransfers") != 0 or sync.get("sourceFilesScanned") != files:
    print("bench: the no-change sync did not succeed with nothing transferred", file=sys.stderr)
    sys.exit(1)
PY
}
if part 1; then
  echo "== 1. no-change compare (harness: the plugin's listings + a map), $FILES files per share, $PER_DIR per directory, 10 ms per request, 20,000 IOPS" >&2
  for run in $(seq "$RUNS"); do
    "$JAVA_HOME/bin/java" -Xmx2g -cp "$CP" io.mover.plugins.azurefiles.AzureFilesCompareBench "$FILES" 10 20000 2000 "$PER_DIR" 2> /dev/null
  done
fi
if part 1b; then
  echo "== 1b. mover sync, no change, $FILES files per share, $PER_DIR per directory, 10 ms per request, 20,000 IOPS (load average: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
  for run in $(seq "$RUNS"); do sync_run; done
fi
part 2 || part 3 || exit 0
SRC="$BENCH_DIR/azure-src-$COPY_FILES"
if [[ ! -d "$SRC" ]]; then
  echo "writing $COPY_FILES files of 1 MiB to $SRC" >&2
  python3 - "$SRC" "$COPY_FILES" <<'PY'
import os, sys
root, n = sys.argv[1], int(sys.argv[2])
block = os.urandom(1 << 20)
for i in range(n):
    d = os.path.join(root, "d%03d" % (i // 100)); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "f%05d.bin" % i), "wb") as f: f.write(block[i % 4096:] + block[:i % 4096])
PY
fi

if [[ -z "${DOUBLE_DATA:-}" ]]; then
  DOUBLE_DATA="${TMPDIR:-/tmp}/azure-double"
  if [[ -d /dev/shm ]] && (( $(df --output=avail -k /dev/shm | tail -1) > (COPY_FILES + 2048) * 1024 )); then DOUBLE_DATA=/dev/shm/mover-azure-double; fi
fi

copy_run() { # NAME IOPS
  local log="$BENCH_DIR/azure-service.log"
  mkdir -p "$DOUBLE_DATA"
  "$JAVA_HOME/bin/java" -Xmx1g -XX:TieredStopAtLevel=1 "-Djava.io.tmpdir=$DOUBLE_DATA" -cp "$CP" io.mover.plugins.azurefiles.fileservice.FileServiceMain \
    --account "benchacct=$KEY" --share benchacct/bench --latency-ms 10 --mbps 300 --iops "$2" --keep-content "${DOUBLE_KEEP_CONTENT:-false}" > "$log" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do grep -q READY "$log" && break; sleep 0.1; done
  local base; base=$(sed -n 's/^READY //p' "$log")
  local start end status double_start double_end cached
  # whether the sources were read from memory or from the disk: the page cache's share of them (util-linux fincore)
  cached=$(find "$SRC/" -type f -print0 | xargs -0 fincore -nb -o RES,SIZE 2> /dev/null | awk '{r += $1; s += $2} END {if (s) printf "%.0f", r * 100 / s}' || true)
  double_start=$(cpu_seconds "$pid")
  start=$(date +%s.%N)
  AZURE_STORAGE_KEY="$KEY" /usr/bin/time -f '%U %S' -o "$BENCH_DIR/azure-copy.cpu" "$MOVER" copy "$SRC" azfiles://benchacct/bench/run "${concurrency_flag[@]}" \
    --dest-config "endpoint=$base/benchacct" > "$BENCH_DIR/azure-copy.out" 2> "$BENCH_DIR/azure-copy.err" && status=0 || status=$?
  end=$(date +%s.%N)
  double_end=$(cpu_seconds "$pid")
  local stats; stats=$(curl -s "$base/_double/stats")
  kill "$pid"; wait "$pid" 2> /dev/null || true
  rm -rf "$DOUBLE_DATA"
  python3 - "$1" "$start" "$end" "$status" "$COPY_FILES" "$stats" "$(tail -1 "$BENCH_DIR/azure-copy.cpu")" "$double_start" "$double_end" "${cached:-}" <<'PY'
import sys
name, start, end, status, files, stats = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], int(sys.argv[5]), sys.argv[6]
cached = sys.argv[10]
counts = dict((l.split("\t")[0], int(l.split("\t")[1])) for l in stats.splitlines() if "\t" in l)
secs = end - start
gib = files / 1024
mover_cpu = sum(float(x) for x in sys.argv[7].split())
double_cpu = float(sys.argv[9]) - float(sys.argv[8])
print(f"{name}: exit {status}, {files} x 1 MiB in {secs:.1f} s = {files * 1048576 / secs / 1e6:.0f} MB/s "
      f"({files * 1048576 / secs / 1e6 / 300 * 100:.0f}% of 300 MB/s), {counts.get('all', 0)} requests "
      f"({counts.get('all', 0) / files:.1f} per file), {counts.get('throttled', 0)} answered 503 ServerBusy; "
      f"CPU: mover {mover_cpu:.1f} s ({mover_cpu / gib:.1f} s/GiB), double {double_cpu:.1f} s ({double_cpu / gib:.1f} s/GiB)")
# the sources' state before the copy: warm (in the page cache) or cold (read from the disk, which costs mover system time)
state = "unknown (no fincore)" if not cached else ("warm" if int(cached) >= 95 else "cold" if int(cached) <= 5 else "partly cached") + f", {cached}% in the page cache"
# the double's bandwidth limit idle while the copy ran: time the client did not keep a body in flight (its CPU,
# or its plan: a request on the crawler's path that waits behind the bodies)
idle, span = counts.get("bandwidth-idle-ms"), counts.get("bandwidth-span-ms")
busy = f"; the 300 MB/s limit idle {idle / 1000:.1f} s of {span / 1000:.1f} s" if span else ""
print(f"  sources: {state}{busy}")
PY
  # the job's own figures (its summary): the time from the job's start, without the JVM's start and the plugins' loading
  grep -E '^(Job |Bytes: |Concurrency: )' "$BENCH_DIR/azure-copy.out" | sed 's/^/  job summary: /' >&2 || true
  tail -3 "$BENCH_DIR/azure-copy.err" >&2 || true
}

echo "== 2. copy $COPY_FILES x 1 MiB local -> share, 10 ms per request, 300 MB/s, 20,000 IOPS, --concurrency ${CONCURRENCY:-not given}" >&2
if part 2; then for run in $(seq "$RUNS"); do copy_run "copy (limits of the share)" 20000; done; fi
part 3 || exit 0
echo "== 3. the same copy with the IOPS limit lowered to $THROTTLED_IOPS (503 ServerBusy past it)" >&2
copy_run "copy (throttled at $THROTTLED_IOPS IOPS)" "$THROTTLED_IOPS"
