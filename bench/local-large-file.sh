#!/usr/bin/env bash
# One large file, local to local: mover copy against cp. Target: mover >= 0.9x cp.
# Usage: bench/local-large-file.sh [SIZE_MIB]   (default 4096)
source "$(dirname "$0")/lib.sh"
SIZE_MIB="${1:-4096}"
need python3
build_mover
mkdir -p "$BENCH_DIR"; RESULTS="$BENCH_DIR/large-file.results"; : > "$RESULTS"
SRC="$BENCH_DIR/large-src"; mkdir -p "$SRC"
if [[ ! -f "$SRC/big.bin" ]] || [[ $(stat -c %s "$SRC/big.bin") -ne $((SIZE_MIB << 20)) ]]; then
  echo "bench: writing a $SIZE_MIB MiB file of mixed data" >&2
  # Half random, half text-like: neither all zeros (sparse tricks) nor all noise.
  python3 - "$SRC/big.bin" "$SIZE_MIB" <<'PY'
import os, sys
path, mib = sys.argv[1], int(sys.argv[2])
text = (b"mover moves bytes and measures every stage of the way, 2026-11-23 INFO\n" * 15000)[:1 << 20]
with open(path, "wb") as f:
    for i in range(mib):
        f.write(os.urandom(1 << 20) if i % 2 == 0 else text)
PY
fi
for run in $(seq "$RUNS"); do
  echo "run $run/$RUNS" >&2
  rm -rf "$BENCH_DIR/large-dst-cp" "$BENCH_DIR/large-dst-mover"; drop_caches
  if (( run % 2 )); then
    timed cp cp -r "$SRC" "$BENCH_DIR/large-dst-cp"; rm -rf "$BENCH_DIR/large-dst-cp"; drop_caches
    timed mover "$MOVER" copy "$SRC" "$BENCH_DIR/large-dst-mover"
    cmp "$SRC/big.bin" "$BENCH_DIR/large-dst-mover/big.bin"
  else
    timed mover "$MOVER" copy "$SRC" "$BENCH_DIR/large-dst-mover"
    cmp "$SRC/big.bin" "$BENCH_DIR/large-dst-mover/big.bin"
    rm -rf "$BENCH_DIR/large-dst-mover"; drop_caches
    timed cp cp -r "$SRC" "$BENCH_DIR/large-dst-cp"
  fi
done
rm -rf "$BENCH_DIR/large-dst-cp" "$BENCH_DIR/large-dst-mover"
echo "one ${SIZE_MIB} MiB file, local to local, $RUNS runs, median:"
report $((SIZE_MIB << 20))
