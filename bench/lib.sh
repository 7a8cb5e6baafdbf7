# Shared helpers for the benchmark scripts: source it, do not run it.
# Each script runs mover and the tools a user would pick instead, in one run, on the same data,
# alternating the order, and prints medians and ratios. See BENCHMARKING notes in docs/benchmarks.md.
set -euo pipefail

BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH_DIR="${BENCH_DIR:-/tmp/mover-bench}"
RUNS="${RUNS:-3}"
MOVER="$BENCH_ROOT/mover"

if [[ -z "${JAVA_HOME:-}" ]] || ! "$JAVA_HOME/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])'; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi

need() {
  for tool in "$@"; do
    if ! command -v "$tool" > /dev/null; then
      echo "bench: $tool is missing; install it (sudo apt-get install -y $tool) and run again" >&2
      exit 1
    fi
  done
}

# Builds the CLI from the working tree so the figures are those of the code under test;
# BENCH_SKIP_BUILD=1 reuses mover-cli/target as it is.
build_mover() {
  if [[ "${BENCH_SKIP_BUILD:-0}" != "1" ]]; then
    (cd "$BENCH_ROOT" && ./mvnw -B -q -DskipTests package -pl mover-cli -am)
  fi
  # one throwaway copy makes the launcher build its ahead-of-time cache (trained on a copy), which the
  # timed runs start from, as it would be on any machine after mover's first run
  local warm
  warm="$(mktemp -d)"
  mkdir -p "$warm/in/d" && head -c 3000000 /dev/urandom > "$warm/in/d/f" && echo x > "$warm/in/g"
  "$MOVER" copy "$warm/in" "$warm/out" > /dev/null
  # the launcher keeps one cache per family of commands (docs/cli.md): a URI endpoint (tcp://, azfiles://) and the
  # client commands train their own on first use, which must not land in a timed run (it took 10 s of the first
  # Azure copy); the commands themselves may fail here, the training comes first
  "$MOVER" plugins tcp:// > /dev/null 2>&1 || true
  "$MOVER" jobs --help > /dev/null 2>&1 || true
  rm -rf "$warm"
}

# Drops the page cache when allowed (root outside a container); otherwise every tool sees the same warm cache.
# Then waits BENCH_SETTLE seconds (default 3): on a virtual disk the host keeps writing back after
# sync returns, and a tool started at once pays for its predecessor's writes.
drop_caches() {
  sync
  if [[ -w /proc/sys/vm/drop_caches ]]; then echo 3 > /proc/sys/vm/drop_caches; fi
  sleep "${BENCH_SETTLE:-3}"
}

# timed NAME CMD...: runs CMD once, appends "NAME seconds maxrss_kib" to $RESULTS.
timed() {
  local name="$1"; shift
  local out
  out=$( { /usr/bin/time -f '%e %M' "$@" > /dev/null 2> "$BENCH_DIR/last.err"; } 2>&1 | tail -1 ) || true
  if ! tail -1 "$BENCH_DIR/last.err" | grep -qE '^[0-9.]+ [0-9]+$'; then
    echo "bench: $name failed:" >&2; cat "$BENCH_DIR/last.err" >&2; exit 1
  fi
  out=$(tail -1 "$BENCH_DIR/last.err")
  echo "$name $out" >> "$RESULTS"
  echo "  $name: ${out% *} s, peak RSS $(( ${out#* } / 1024 )) MiB" >&2
}

# report BYTES BASELINE...: prints the median time, throughput, and mover's ratio against each tool.
report() {
  local bytes="$1"
  python3 - "$RESULTS" "$bytes" <<'PY'
import sys, statistics, collections
results, total = sys.argv[1], int(sys.argv[2])
runs = collections.defaultdict(list)
for line in open(results):
    name, secs, rss = line.rsplit(None, 2)
    runs[name].append((float(secs), int(rss)))
med = {n: statistics.median(s for s, _ in r) for n, r in runs.items()}
print(f"{'tool':<22}{'median s':>10}{'MB/s':>10}{'peak RSS MiB':>14}{'mover speed vs tool':>22}")
for name, r in runs.items():
    mbps = total / med[name] / 1e6 if med[name] > 0 else float('inf')
    ratio = med[name] / med['mover'] if med.get('mover') else float('nan')
    print(f"{name:<22}{med[name]:>10.2f}{mbps:>10.1f}{max(x for _, x in r) / 1024:>14.0f}{ratio:>21.2f}x")
PY
}

# small_tree DIR FILES FOLDERS: FILES files of 100 KiB (half random, half text) in FOLDERS folders, once.
small_tree() {
  local dir="$1" files="$2" folders="$3"
  [[ -d "$dir" ]] && return
  echo "bench: writing $files files of 100 KiB in $folders folders" >&2
  python3 - "$dir" "$files" "$folders" <<'PY'
import os, sys
root, files, folders = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
text = (b"2026-11-23 INFO mover small file benchmark line\n" * 3000)[:100 * 1024 // 2]
for d in range(folders):
    os.makedirs(os.path.join(root, f"dir{d:03d}"), exist_ok=True)
for i in range(files):
    with open(os.path.join(root, f"dir{i % folders:03d}", f"file{i:05d}.dat"), "wb") as f:
        f.write(os.urandom(100 * 1024 // 2) + text)
PY
}

# shaped_link NS_A NS_B DEV_A DEV_B IP_A IP_B RATE: (re)creates two network namespaces joined by a veth pair, DEV_A with
# IP_A/24 in NS_A and DEV_B with IP_B/24 in NS_B, shaped to RATE by tbf at both ends (so that ACKs are shaped too), or
# left unshaped for RATE=loopback. Only the namespaces named, which the caller deletes at exit.
shaped_link() {
  local ns_a="$1" ns_b="$2" dev_a="$3" dev_b="$4" ip_a="$5" ip_b="$6" rate="$7"
  ip netns del "$ns_a" 2>/dev/null || true
  ip netns del "$ns_b" 2>/dev/null || true
  ip netns add "$ns_a"; ip netns add "$ns_b"
  ip link add "$dev_a" netns "$ns_a" type veth peer name "$dev_b" netns "$ns_b"
  ip -n "$ns_a" addr add "$ip_a/24" dev "$dev_a"; ip -n "$ns_b" addr add "$ip_b/24" dev "$dev_b"
  ip -n "$ns_a" link set "$dev_a" up; ip -n "$ns_b" link set "$dev_b" up
  ip -n "$ns_a" link set lo up; ip -n "$ns_b" link set lo up
  if [[ "$rate" != "loopback" ]]; then
    tc -n "$ns_a" qdisc add dev "$dev_a" root tbf rate "$rate" burst 500000 latency 20ms
    tc -n "$ns_b" qdisc add dev "$dev_b" root tbf rate "$rate" burst 500000 latency 20ms
  fi
}
