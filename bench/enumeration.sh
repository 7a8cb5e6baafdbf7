#!/usr/bin/env bash
# Enumeration in bounded memory: a dry run over 100,000 and then 1,000,000 entries, with a small heap,
# reporting the largest heap after a GC for each. Target: the 1M figure is not ~10x the 100k figure
# (the plan is streamed, never held whole).
# Usage: bench/enumeration.sh
source "$(dirname "$0")/lib.sh"
need python3
build_mover
mkdir -p "$BENCH_DIR"
make_tree() { # DIR COUNT: COUNT empty files in folders of 1,000
  [[ -d "$1" ]] && return
  echo "bench: creating $2 empty files in $1" >&2
  python3 - "$1" "$2" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
for i in range(count):
    d = os.path.join(root, f"d{i // 1000:04d}")
    if i % 1000 == 0:
        os.makedirs(d, exist_ok=True)
    os.close(os.open(os.path.join(d, f"f{i:07d}"), os.O_CREAT | os.O_WRONLY, 0o644))
PY
}
peak_heap_after_gc() { # GCLOG: the largest heap occupancy after a collection, in MiB
  python3 - "$1" <<'PY'
import re, sys
peak = 0
for line in open(sys.argv[1]):
    m = re.search(r"->(\d+)M\(\d+M\)", line)
    if m and "Pause" in line:
        peak = max(peak, int(m.group(1)))
print(peak)
PY
}
printf '%-12s %10s %18s %14s\n' entries seconds "peak heap after GC" "peak RSS MiB"
for count in 100000 1000000; do
  tree="$BENCH_DIR/enum-$count"; make_tree "$tree" "$count"
  log="$BENCH_DIR/enum-$count.gc"
  start=$(date +%s.%N)
  MOVER_JAVA_OPTS="-Xmx96m -Xlog:gc:file=$log" /usr/bin/time -f '%M' -o "$BENCH_DIR/enum.rss" \
    "$MOVER" copy --dry-run --output json "$tree" "$BENCH_DIR/enum-dst" > /dev/null
  end=$(date +%s.%N)
  printf '%-12s %10.1f %15s MiB %14s\n' "$count" "$(echo "$end - $start" | bc)" "$(peak_heap_after_gc "$log")" "$(( $(cat "$BENCH_DIR/enum.rss") / 1024 ))"
done
