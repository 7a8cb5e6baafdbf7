#!/usr/bin/env bash
# Where the time of one peer copy goes: sender start -> JVM -> connect -> first data byte on the wire -> last byte ->
# the receiver's last write -> its commit (flush, rename) -> the sender's exit, over bench/peer.sh's shaped link
# (two network namespaces, a veth pair, tbf at both ends). docs/benchmarks.md, "Fixed costs of a peer copy over 1 Gbit".
#
# Usage (root, for ip netns): bench/peer-timeline.sh [--mib 1024] [--rate 1gbit] [--runs 3] [--no-fsync] [--data FILE]
# --data FILE copies that file (e.g. bench/peer.sh's mixed data) instead of MIB of random bytes; the wire's rate
# per 0.5 s is printed for each run, so a link left idle mid-copy shows.
# BUILDS="before=/path/to/mover after=/other/mover" compares launchers in alternation (each with a receiver of its
# own); by default the working tree's alone. BENCH_DIR=/tmp/mover-bench, BENCH_SKIP_BUILD=1 as in the other scripts.
# Timestamps: strace of both ends (the sender's execve/connect/exit_group; the receiver's pwrite64, fsync, fdatasync,
# rename), the receiver's veth rx_bytes sampled every 2 ms, -Xlog:class+load for io.mover.cli.Main. strace slows
# the traced calls a little; wall times of CPU-bound phases mean little on a loaded machine (the load is printed).
source "$(dirname "$0")/lib.sh"

MIB=1024
RATE=1gbit
RECEIVER_ARGS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --mib) MIB="$2"; shift 2 ;;
    --rate) RATE="$2"; shift 2 ;;
    --runs) RUNS="$2"; shift 2 ;;
    --no-fsync) RECEIVER_ARGS=(--no-fsync); shift ;;
    --data) DATA_FILE="$2"; shift 2 ;;
    *) echo "bench: unknown option $1" >&2; exit 1 ;;
  esac
done
need ip tc strace python3
[[ $EUID -eq 0 ]] || { echo "bench: network namespaces need root" >&2; exit 1; }

SEND_NS=mvtimeA
RECV_NS=mvtimeB
SEND_IP=10.205.0.1
RECV_IP=10.205.0.2
PORT=7421
OUT="$BENCH_DIR/timeline"
declare -A LAUNCHERS=()
if [[ -n "${BUILDS:-}" ]]; then
  for build in $BUILDS; do LAUNCHERS[${build%%=*}]="${build#*=}"; done
else
  build_mover
  LAUNCHERS[tree]="$MOVER"
fi
NAMES=("${!LAUNCHERS[@]}")
RECEIVERS=()

cleanup() {
  # each receiver runs under strace, which outlives a TERM while its tracee runs: the receiver (strace's child) is told
  local pid
  for pid in "${RECEIVERS[@]}"; do
    kill $(pgrep -P "$pid") 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  ip netns del "$SEND_NS" 2>/dev/null || true
  ip netns del "$RECV_NS" 2>/dev/null || true
}
trap cleanup EXIT

rm -rf "$OUT"; mkdir -p "$OUT/data" "$OUT/received"
if [[ -n "${DATA_FILE:-}" ]]; then cp "$DATA_FILE" "$OUT/data/data.bin"; else head -c $((MIB << 20)) /dev/urandom > "$OUT/data/data.bin"; fi
head -c 24 /dev/urandom | base64 > "$OUT/token"; chmod 600 "$OUT/token"
shaped_link "$SEND_NS" "$RECV_NS" mvt0 mvt1 "$SEND_IP" "$RECV_IP" "$RATE"

# one receiver per build, each warmed by a 64 MiB copy (a receiver is a long-running service)
declare -A PORTS=()
index=0
for name in "${NAMES[@]}"; do
  PORTS[$name]=$((PORT + index)); index=$((index + 1))
  ( exec ip netns exec "$RECV_NS" strace -f -ttt --seccomp-bpf -e trace=pwrite64,fsync,fdatasync,rename -o "$OUT/receiver-$name.strace" \
      "${LAUNCHERS[$name]}" receive --listen "$RECV_IP:${PORTS[$name]}" --token-file "$OUT/token" "${RECEIVER_ARGS[@]}" "$OUT/received" \
      > "$OUT/receiver-$name.log" 2>&1 ) &
  RECEIVERS+=($!)
  for _ in $(seq 1 300); do grep -q "receiving into" "$OUT/receiver-$name.log" && break; sleep 0.1; done
  mkdir -p "$OUT/warm"; head -c $((64 << 20)) /dev/urandom > "$OUT/warm/data.bin"
  ip netns exec "$SEND_NS" env MOVER_PEER_TOKEN="$(cat "$OUT/token")" "${LAUNCHERS[$name]}" copy --codec auto --streams 4 "$OUT/warm" \
    "tcp://$RECV_IP:${PORTS[$name]}/warm" > /dev/null
  rm -rf "$OUT/warm" "$OUT/received/warm"
done

for run in $(seq 1 "$RUNS"); do
  order=("${NAMES[@]}")
  (( run % 2 == 0 )) && order=($(printf '%s\n' "${NAMES[@]}" | tac))
  for name in "${order[@]}"; do
    id="$name-$run"
    drop_caches
    cut -d' ' -f1 /proc/loadavg > "$OUT/$id.load"
    ip netns exec "$RECV_NS" python3 -c '
import sys, time
out, end = open(sys.argv[1], "w"), time.time() + 600
last = None
while time.time() < end:
    now = int(open("/sys/class/net/mvt1/statistics/rx_bytes").read())
    if now != last:
        out.write("%.6f %d\n" % (time.time(), now)); out.flush(); last = now
    time.sleep(0.002)
' "$OUT/$id.wire" &
    sampler=$!
    sleep 0.5
    date +%s.%N > "$OUT/$id.start"
    ip netns exec "$SEND_NS" strace -f -ttt --seccomp-bpf -e trace=execve,connect,exit_group -o "$OUT/$id.strace" \
      env MOVER_PEER_TOKEN="$(cat "$OUT/token")" MOVER_JAVA_OPTS="-Xlog:class+load=info:file=$OUT/$id.classes:time" \
      /usr/bin/time -o "$OUT/$id.cpu" -f '%U %S' "${LAUNCHERS[$name]}" copy --codec auto --streams 4 --log-level debug \
      "$OUT/data" "tcp://$RECV_IP:${PORTS[$name]}/$id" > "$OUT/$id.log" 2>&1
    sleep 0.5; kill "$sampler"; wait "$sampler" 2>/dev/null || true
    cmp -s "$OUT/data/data.bin" "$OUT/received/$id/data.bin" || { echo "bench: $id delivered different bytes" >&2; exit 1; }
    rm -rf "$OUT/received/$id"
    echo "  $id done" >&2
  done
done

python3 - "$OUT" "${NAMES[@]}" <<'PY'
import datetime, glob, os, re, statistics, sys
out, names = sys.argv[1], sys.argv[2:]
def events(run, receiver):
    start = float(open(f"{out}/{run}.start").read())
    ev = {"start": start}
    for line in open(f"{out}/{run}.strace"):
        parts = line.split(None, 2)
        if len(parts) < 3:
            continue
        t, call = float(parts[1]), parts[2]
        if call.startswith("execve(") and "bin/java" in call and "= 0" in call:
            ev.setdefault("java", t)
        elif call.startswith("connect(") and "htons(" in call:
            ev.setdefault("connect", t)
        elif call.startswith("exit_group"):
            ev["exit"] = t
    for line in open(f"{out}/{run}.classes"):
        m = re.match(r"\[(\S+)\] io\.mover\.cli\.Main ", line)
        if m:
            ev["main"] = datetime.datetime.strptime(m.group(1), "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()
    wire = [tuple(map(float, l.split())) for l in open(f"{out}/{run}.wire")]
    base, final = wire[0][1], wire[-1][1]
    ev["first"] = next(t for t, rx in wire if rx - base > 64 << 10)
    ev["last"] = next(t for t, rx in wire if rx >= final - (256 << 10))
    inside = [l.split() for l in receiver if ev["start"] <= float(l.split()[1]) <= ev["exit"]]
    ev["write"] = max(float(p[1]) for p in inside if p[2].startswith("pwrite64("))
    ev["rename"] = max(float(p[1]) for p in inside if p[2].startswith("rename("))
    handshake = re.search(r"connected and authenticated in (\d+) ms", open(f"{out}/{run}.log").read())
    ev["handshake"] = int(handshake.group(1)) / 1000 if handshake else float("nan")
    ev["cpu"] = sum(map(float, open(f"{out}/{run}.cpu").read().split()[:2]))
    ev["load"] = float(open(f"{out}/{run}.load").read())
    ev["rate"] = (final - base) / 1e6 / (ev["last"] - ev["first"])
    return ev
phases = [("launcher script (start -> execve java)", "start", "java"), ("JVM start -> io.mover.cli.Main", "java", "main"),
          ("Main -> first connect()", "main", "connect"), ("connect() -> first data on the wire", "connect", "first"),
          ("first -> last data on the wire", "first", "last"), ("last data -> receiver's last pwrite", "last", "write"),
          ("last pwrite -> rename (the commit)", "write", "rename"), ("rename -> sender's exit", "rename", "exit"),
          ("total", "start", "exit")]
table = {}
for name in names:
    receiver = open(f"{out}/receiver-{name}.strace").read().splitlines()
    runs = [events(os.path.basename(f)[:-6], receiver) for f in sorted(glob.glob(f"{out}/{name}-*.start"))]
    rows = [(label, [r[b] - r[a] for r in runs]) for label, a, b in phases]
    rows += [("  connect + handshake (debug log)", [r["handshake"] for r in runs]),
             ("fixed cost (total - data on the wire)", [r["exit"] - r["start"] - (r["last"] - r["first"]) for r in runs]),
             ("wire MB/s while sending", [r["rate"] for r in runs]), ("sender CPU s (user+sys)", [r["cpu"] for r in runs]),
             ("load average (1 min) at start", [r["load"] for r in runs])]
    table[name] = rows
print("seconds, median (min-max) of each build's runs")
print(f"{'phase':<42}" + "".join(f"{name:>24}" for name in names))
for i, (label, _) in enumerate(table[names[0]]):
    cells = []
    for name in names:
        values = sorted(table[name][i][1])
        cells.append(f"{statistics.median(values):.3f} ({values[0]:.2f}-{values[-1]:.2f})")
    print(f"{label:<42}" + "".join(f"{cell:>24}" for cell in cells))
print("wire MB/s per 0.5 s from the sender's start, each run")
for name in names:
    for f in sorted(glob.glob(f"{out}/{name}-*.start")):
        run = os.path.basename(f)[:-6]
        start = float(open(f).read())
        wire = [tuple(map(float, l.split())) for l in open(f"{out}/{run}.wire")]
        # rx_bytes at each 0.5 s edge: the last sample at or before it
        edges = [start + 0.5 * i for i in range(int((wire[-1][0] - start) / 0.5) + 2)]
        at, i = [], 0
        for edge in edges:
            while i + 1 < len(wire) and wire[i + 1][0] <= edge:
                i += 1
            at.append(wire[i][1])
        rates = [(b - a) / 0.5e6 for a, b in zip(at, at[1:])]
        print(f"  {run}: " + " ".join(f"{r:.0f}" for r in rates))
PY
