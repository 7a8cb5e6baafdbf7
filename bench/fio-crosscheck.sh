#!/usr/bin/env bash
# mover bench --mode io against fio with the same parameters, on the local disk: 64 KiB sequential and
# 8 KiB random, read and write, at each queue depth (fio: ioengine=psync, numjobs=depth, each job in its
# own slice of one file, buffered, page cache kept warm for both: invalidate=0, as mover's file was just
# written). Alternates the order each run and prints medians and mover's ratio per corner (target >= 0.9x).
# fio runs twice per point: with --thread (its jobs as threads of one process, as mover's workers are) and
# with its default processes. fio's processes each call setsid(), and with the kernel's autogroup
# scheduling (/proc/sys/kernel/sched_autogroup_enabled=1) every session is one entity of the CPU's fair
# share: on a machine other sessions keep busy, numjobs=N processes get up to N shares where fio --thread
# and mover's JVM get one (docs/benchmarks.md, issue 8). So the second table compares operations per
# CPU-second (fio's usr_cpu + sys_cpu of its jobs, mover's workers' thread CPU time), which does not
# depend on the CPU share each tool got; MiB/s against fio processes is only like-for-like on an idle
# machine, or with the script in one CPU cgroup of its own, where autogroup does not apply.
# FIO_MODES="thread" skips the processes. RUNTIME is whole seconds per point (fio needs an integer).
# Usage: RUNS=3 SIZE=1GiB RUNTIME=2 DEPTHS="1 8 64" FIO_MODES="thread process" bench/fio-crosscheck.sh
source "$(dirname "$0")/lib.sh"
need fio python3

SIZE="${SIZE:-1GiB}"
RUNTIME="${RUNTIME:-2}"
DEPTHS="${DEPTHS:-1 8 64}"
FIO_MODES="${FIO_MODES:-thread process}"
size_bytes=$(python3 -c "import sys; s=sys.argv[1].lower().replace('ib','').replace('b',''); m={'k':1<<10,'m':1<<20,'g':1<<30}; print(int(s[:-1])*m[s[-1]] if s[-1] in m else int(s))" "$SIZE")
work="$BENCH_DIR/fio-crosscheck"
rm -rf "$work" && mkdir -p "$work/mover" "$work/fio"
RESULTS="$work/results.txt"
: > "$RESULTS"
build_mover
echo "bench: $SIZE test file, depths $DEPTHS, ${RUNTIME}s per point, $RUNS runs" >&2

run_mover() {
  "$MOVER" bench --mode io --io-size "$SIZE" --runtime "${RUNTIME}s" --queue-depths "${DEPTHS// /,}" --write-block-sizes 64KiB \
    --output json --log-level error "$work/mover" > "$work/mover.json"
  python3 - "$work/mover.json" >> "$RESULTS" <<'PY'
import json, sys
for p in json.load(open(sys.argv[1]))["io"]:
    print(f'mover {p["pattern"]} {p["queueDepth"]} {p["mibPerSecond"]:.1f} {p["iops"]:.0f} {p["latency"]["p99Micros"]:.1f}'
          f' {p["operations"] / p["cpuSeconds"]:.0f}')
PY
}

run_fio() {
  local slice mode
  for mode in $FIO_MODES; do
    for depth in $DEPTHS; do
      slice=$(( size_bytes / depth ))
      for corner in "seq-read read 64k" "seq-write write 64k" "rand-read randread 8k" "rand-write randwrite 8k"; do
        set -- $corner
        fio --name="$1" --filename="$work/fio/fio.bin" --filesize="$size_bytes" --size="$slice" --offset_increment="$slice" \
          --numjobs="$depth" $([[ $mode == thread ]] && echo --thread) --ioengine=psync --rw="$2" --bs="$3" --direct=0 --invalidate=0 \
          --time_based --runtime="$RUNTIME" --group_reporting --output-format=json > "$work/fio.json"
        python3 - "$work/fio.json" "$1" "$depth" "fio-$mode" >> "$RESULTS" <<'PY'
import json, sys
job = json.load(open(sys.argv[1]))["jobs"][0]
side = job["read"] if "read" in sys.argv[2] else job["write"]
p99 = side["clat_ns"].get("percentile", {}).get("99.000000", 0) / 1000
# usr_cpu and sys_cpu are per cent of job_runtime, the jobs' run times added up: their CPU seconds together
cpu = (job["usr_cpu"] + job["sys_cpu"]) / 100 * job["job_runtime"] / 1000
print(f'{sys.argv[4]} {sys.argv[2]} {sys.argv[3]} {side["bw_bytes"] / 1048576:.1f} {side["iops"]:.0f} {p99:.1f} {side["total_ios"] / cpu:.0f}')
PY
      done
    done
  done
}

# fio lays out its file once, untimed, as mover lays out its own in each run
fio --name=layout --filename="$work/fio/fio.bin" --filesize="$size_bytes" --size="$size_bytes" --rw=write --bs=1m --output=/dev/null
for run in $(seq 1 "$RUNS"); do
  echo "bench: run $run of $RUNS" >&2
  if (( run % 2 )); then run_mover; run_fio; else run_fio; run_mover; fi
done

python3 - "$RESULTS" <<'PY'
import sys, statistics, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    tool, pattern, depth, mib, iops, p99, per_cpu = line.split()
    rows[(pattern, int(depth), tool)].append((float(mib), float(iops), float(p99), float(per_cpu)))
order = ["seq-read", "seq-write", "rand-read", "rand-write"]
keys = sorted({(p, d) for p, d, _ in rows}, key=lambda k: (order.index(k[0]), k[1]))
tools = sorted({t for _, _, t in rows if t != "mover"})
median = lambda key: [statistics.median(x) for x in zip(*rows[key])] if rows.get(key) else [float("nan")] * 4
print("| corner | qd | mover MiB/s | " + " | ".join(f"{t} MiB/s" for t in tools) + " | mover IOPS | mover p99 µs | "
      + " | ".join(f"{t} p99 µs" for t in tools) + " | " + " | ".join(f"mover vs {t}" for t in tools) + " |")
print("|---|---:" + "|---:" * (3 + 3 * len(tools)) + "|")
for pattern, depth in keys:
    m = median((pattern, depth, "mover"))
    f = {t: median((pattern, depth, t)) for t in tools}
    print(f"| {pattern} | {depth} | {m[0]:.0f} | " + " | ".join(f"{f[t][0]:.0f}" for t in tools) + f" | {m[1]:.0f} | {m[2]:.0f} | "
          + " | ".join(f"{f[t][2]:.0f}" for t in tools) + " | " + " | ".join(f"**{m[0] / f[t][0]:.2f}x**" for t in tools) + " |")
print()
print("Operations per CPU-second (whatever CPU share each tool got):")
print()
print("| corner | qd | mover ops/CPU-s | " + " | ".join(f"{t} ops/CPU-s" for t in tools) + " | "
      + " | ".join(f"mover vs {t} per CPU-s" for t in tools) + " |")
print("|---|---:" + "|---:" * (1 + 2 * len(tools)) + "|")
for pattern, depth in keys:
    m = median((pattern, depth, "mover"))
    f = {t: median((pattern, depth, t)) for t in tools}
    print(f"| {pattern} | {depth} | {m[3]:.0f} | " + " | ".join(f"{f[t][3]:.0f}" for t in tools) + " | "
          + " | ".join(f"**{m[3] / f[t][3]:.2f}x**" for t in tools) + " |")
PY
rm -rf "$work/mover" "$work/fio"
