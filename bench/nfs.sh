#!/usr/bin/env bash
# The nfs plugin against libnfs's nfs-cp (a C userspace NFS client), through nfs-ganesha on loopback.
#   1. one 1 GiB file written to the export and read back: mover with 1, 2, 4 and 8 connections, and nfs-cp
#      (target: mover >= 2x nfs-cp);
#   2. 10,000 files of 100 KiB copied to the export by mover, files per second beside mover's local-disk figure.
# JVM start is included in mover's times. Beside the times, the CPU seconds of the client (user + system) and of
# ganesha (from /proc) per run: less sensitive than wall clock to other work on the machine.
# Needs root (ganesha's VFS backend) and
#   apt-get install -y nfs-ganesha nfs-ganesha-vfs rpcbind libnfs-utils time python3
# Usage: bench/nfs.sh [FILES]     (RUNS, BENCH_DIR, BENCH_SKIP_BUILD as in bench/lib.sh; NFS_PORT, MOUNT_PORT)
source "$(dirname "$0")/lib.sh"
FILES="${1:-10000}"
NFS_PORT="${NFS_PORT:-12049}"; MOUNT_PORT="${MOUNT_PORT:-12048}"
GANESHA="$BENCH_ROOT/mover-plugins/mover-plugin-nfs/src/test/resources/io/mover/plugins/nfs/ganesha.sh"
need ganesha.nfsd nfs-cp python3
# a start-up cache of our own: the launcher's shared one is rebuilt (30 s) whenever a mover from another
# checkout runs in between, which would land inside a timed run
export XDG_CACHE_HOME="$BENCH_DIR/xdg-cache"
build_mover
mkdir -p "$BENCH_DIR"
EXPORT="$BENCH_DIR/nfs-export"; STATE="$BENCH_DIR/nfs-ganesha"
bash "$GANESHA" stop "$STATE" 2> /dev/null || true
rm -rf "$EXPORT"
bash "$GANESHA" start "$STATE" "$EXPORT" "$NFS_PORT" "$MOUNT_PORT" > /dev/null
trap 'bash "$GANESHA" stop "$STATE"' EXIT
GANESHA_PID="$(cat "$STATE/ganesha.pid")"

# ganesha's CPU seconds (user + system, all threads) so far
ganesha_cpu() {
  awk -v tick="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / tick}' "/proc/$GANESHA_PID/stat"
}

# timed_cpu NAME CMD...: runs CMD once, appends "NAME seconds client_cpu ganesha_cpu" to $RESULTS.
timed_cpu() {
  local name="$1"; shift
  local before after out
  before="$(ganesha_cpu)"
  /usr/bin/time -f '%e %U %S' -o "$BENCH_DIR/last.time" "$@" > /dev/null 2> "$BENCH_DIR/last.err" || {
    echo "bench: $name failed:" >&2; cat "$BENCH_DIR/last.err" >&2; exit 1; }
  after="$(ganesha_cpu)"
  out="$(awk -v b="$before" -v a="$after" '{printf "%s %.2f %.2f", $1, $2 + $3, a - b}' "$BENCH_DIR/last.time")"
  echo "$name $out" >> "$RESULTS"
  echo "  $name: $out (s, client CPU s, ganesha CPU s)" >&2
}
NFS="nfs://127.0.0.1:$NFS_PORT/export"
LIBNFS_ARGS="nfsport=$NFS_PORT&mountport=$MOUNT_PORT"

SRC="$BENCH_DIR/nfs-src-1g"
if [[ ! -f "$SRC/big.bin" ]]; then
  mkdir -p "$SRC"; head -c 1073741824 /dev/urandom > "$SRC/big.bin"
fi
mkdir -p "$EXPORT/read"; cp "$SRC/big.bin" "$EXPORT/read/big.bin"
SUM="$(sha256sum < "$SRC/big.bin")"
BACK="$BENCH_DIR/nfs-back"
# every run writes to a new folder of the export: ganesha caches names, and a folder removed behind its
# back (rm -rf on its disk) would still be found by LOOKUP, its handle stale

RESULTS="$BENCH_DIR/nfs-large.results"; : > "$RESULTS"
tools=(c1 c2 c4 c8 nfs-cp)
for run in $(seq "$RUNS"); do
  echo "run $run/$RUNS" >&2
  for k in 0 1 2 3 4; do
    tool=${tools[$(( (k + run) % 5 ))]}
    rm -rf "$EXPORT"/write-* "$BACK"; mkdir -p "$BACK"; drop_caches
    target="write-$run-$tool"
    case $tool in
      nfs-cp)
        timed_cpu "write nfs-cp" nfs-cp "$SRC/big.bin" "nfs://127.0.0.1/export/$target.bin?$LIBNFS_ARGS"
        [[ "$(sha256sum < "$EXPORT/$target.bin")" == "$SUM" ]] || { echo "bench: the file nfs-cp wrote differs" >&2; exit 1; }
        rm -f "$EXPORT/$target.bin"; drop_caches
        timed_cpu "read nfs-cp" nfs-cp "nfs://127.0.0.1/export/read/big.bin?$LIBNFS_ARGS" "$BACK/big.bin" ;;
      c*)
        n=${tool#c}
        timed_cpu "write mover x$n" "$MOVER" copy "$SRC" "$NFS/$target" --dest-config "mount-port=$MOUNT_PORT" --dest-config "connections=$n"
        [[ "$(sha256sum < "$EXPORT/$target/big.bin")" == "$SUM" ]] || { echo "bench: the written file differs" >&2; exit 1; }
        drop_caches
        timed_cpu "read mover x$n" "$MOVER" copy "$NFS/read" "$BACK" --source-config "mount-port=$MOUNT_PORT" --source-config "connections=$n" ;;
    esac
    [[ "$(sha256sum < "$BACK/big.bin")" == "$SUM" ]] || { echo "bench: the read file differs" >&2; exit 1; }
  done
done
rm -rf "$EXPORT"/write-* "$BACK"

python3 - "$RESULTS" <<'PY'
import sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, secs, client, server = line.rsplit(None, 3)
    runs[name].append((float(secs), float(client), float(server)))
def med(name, i):
    return statistics.median(r[i] for r in runs[name])
print("1 GiB, loopback ganesha, median of runs (mover's JVM start included; CPU in seconds for the 1 GiB):")
print(f"{'':<20}{'median s':>10}{'MB/s':>10}{'vs nfs-cp':>11}{'client CPU':>12}{'ganesha CPU':>13}")
for direction in ("write", "read"):
    base = med(f"{direction} nfs-cp", 0)
    for name in sorted((n for n in runs if n.startswith(direction)), key=lambda n: (n.endswith("nfs-cp"), int(n.split("x")[-1]) if "mover" in n else 0)):
        m = med(name, 0)
        print(f"{name:<20}{m:>10.2f}{(1 << 30) / m / 1e6:>10.1f}{base / m:>10.2f}x{med(name, 1):>12.2f}{med(name, 2):>13.2f}")
PY

# many small files: mover to the export and mover to local disk, alternating
SMALL="$BENCH_DIR/small-src-$FILES"
small_tree "$SMALL" "$FILES" 100
RESULTS="$BENCH_DIR/nfs-small.results"; : > "$RESULTS"
for run in $(seq "$RUNS"); do
  for tool in nfs local; do
    rm -rf "$EXPORT"/small-* "$BENCH_DIR/small-local"; drop_caches
    case $tool in
      nfs)   timed_cpu "mover to nfs" "$MOVER" copy "$SMALL" "$NFS/small-$run" --dest-config "mount-port=$MOUNT_PORT"
             diff -r -q "$SMALL" "$EXPORT/small-$run" > /dev/null ;;
      local) timed_cpu "mover to local disk" "$MOVER" copy "$SMALL" "$BENCH_DIR/small-local" ;;
    esac
  done
done
rm -rf "$EXPORT"/small-* "$BENCH_DIR/small-local"
python3 - "$RESULTS" "$FILES" <<'PY'
import sys, statistics, collections
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, secs, client, server = line.rsplit(None, 3)
    runs[name].append((float(secs), float(client), float(server)))
files = int(sys.argv[2])
print(f"{files} files of 100 KiB in 100 folders, median of runs (JVM start included):")
for name, r in runs.items():
    m = statistics.median(x[0] for x in r)
    client = statistics.median(x[1] for x in r)
    server = statistics.median(x[2] for x in r)
    print(f"{name:<22}{m:>8.2f} s{files / m:>10.0f} files/s   client CPU {client:.2f} s, ganesha CPU {server:.2f} s")
PY
