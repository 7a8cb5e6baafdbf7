#!/usr/bin/env bash
# 10,000 files of 100 KiB in 100 folders, local to local: mover copy against cp -r, tar | tar and
# rclone copy (default flags), each including its own start-up. Target: mover >= 1.0x the fastest.
# Also reports mover's peak RSS (target < 300 MiB).
# Usage: bench/small-files.sh [FILES] [FOLDERS]
source "$(dirname "$0")/lib.sh"
FILES="${1:-10000}"; FOLDERS="${2:-100}"
need python3 tar rclone
build_mover
mkdir -p "$BENCH_DIR"; RESULTS="$BENCH_DIR/small-files.results"; : > "$RESULTS"
SRC="$BENCH_DIR/small-src-$FILES"
small_tree "$SRC" "$FILES" "$FOLDERS"
# Every copy goes to a fresh folder, all removed at the end (needs RUNS x 4 x the tree's size free): ext4
# skips inodes freed in the last 30 s or so when it allocates new ones (recently_deleted in perf), so a
# copy right after `rm -rf` of the previous one spent most of its kernel time stepping over them.
rm -rf "$BENCH_DIR"/small-dst-*
tools=(mover cp tar rclone)
for run in $(seq "$RUNS"); do
  echo "run $run/$RUNS" >&2
  # rotate the order so no tool always runs first on a cold cache
  for k in 0 1 2 3; do
    tool=${tools[$(( (k + run) % 4 ))]}
    DST="$BENCH_DIR/small-dst-$run-$tool"; drop_caches
    case $tool in
      mover)  timed mover "$MOVER" copy "$SRC" "$DST"; diff -r -q "$SRC" "$DST" > /dev/null ;;
      cp)     timed "cp -r" cp -r "$SRC" "$DST" ;;
      tar)    mkdir -p "$DST"; timed "tar|tar" bash -c "tar -C '$SRC' -cf - . | tar -C '$DST' -xf -" ;;
      rclone) timed "rclone copy" rclone copy --config /dev/null "$SRC" "$DST" ;;
    esac
  done
done
rm -rf "$BENCH_DIR"/small-dst-*
echo "$FILES files of 100 KiB in $FOLDERS folders, local to local, $RUNS runs, median (JVM start included):"
report $((FILES * 100 * 1024))
