#!/usr/bin/env bash
# Side-by-side, whole-process comparison of `bonescope info` and `assimp info` (Debian's assimp-utils) on the
# same large SMD and ASE files, plus peak memory (RSS) of each, and bonescope's start-up time on a 1 MB file.
# Usage: scripts/bench-vs-assimp.sh [SIZE_MB] [RUNS]     (defaults: 20 MB, 7 runs). Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
size_mb=${1:-20}
runs=${2:-7}
work=${BENCH_DIR:-$(mktemp -d)}

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v assimp >/dev/null || need+=(assimp-utils)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

cargo build --release --no-default-features --bin bonescope --example generate >&2
bin=target/release/bonescope
gen=target/release/examples/generate
$gen smd "$work/large.smd" "$size_mb" 2>/dev/null
$gen ase "$work/large.ase" "$size_mb" 2>/dev/null
$gen smd "$work/small.smd" 1 2>/dev/null

median() { # hyperfine JSON → median seconds of command N
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['results'][int(sys.argv[2])]['median'])" "$1" "$2"
}
peak_rss_mb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1/1024}'; }

echo "| file | size (MB) | bonescope median (s) | bonescope MB/s | assimp median (s) | assimp MB/s | ratio | bonescope RSS (MB) | assimp RSS (MB) |"
echo "|---|---|---|---|---|---|---|---|---|"
for f in large.smd large.ase; do
  path="$work/$f"
  bytes=$(stat -c %s "$path")
  hyperfine --warmup 1 --runs "$runs" --export-json "$work/$f.json" -N \
    "$bin info $path" "assimp info $path" >/dev/null 2>&1
  ours=$(median "$work/$f.json" 0)
  theirs=$(median "$work/$f.json" 1)
  python3 - "$f" "$bytes" "$ours" "$theirs" "$(peak_rss_mb $bin info "$path")" "$(peak_rss_mb assimp info "$path")" <<'PY'
import sys
f, size, ours, theirs, rss_ours, rss_theirs = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5], sys.argv[6]
mb = size / 1e6
print(f"| {f} | {mb:.1f} | {ours:.3f} | {mb/ours:.0f} | {theirs:.3f} | {mb/theirs:.0f} | {theirs/ours:.1f}× | {rss_ours} | {rss_theirs} |")
PY
done
hyperfine --warmup 2 --runs 20 --export-json "$work/startup.json" -N "$bin info $work/small.smd" >/dev/null 2>&1
echo
echo "bonescope info on a $(stat -c %s "$work/small.smd")-byte SMD, whole process: median $(python3 -c "print(round($(median "$work/startup.json" 0)*1000, 1))") ms"
