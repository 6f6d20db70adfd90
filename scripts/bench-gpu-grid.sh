#!/usr/bin/env bash
# GPU skinning at scale: `bonescope render --grid N --bench-frames FRAMES` on a generated character of about
# 10,000 vertices and 64 bones (four influences a vertex) playing a 60-frame clip, for each N (N×N instances,
# each with its own time and palette). Prints one Markdown table: wall time per frame (median, p10–p90) and, where
# the adapter has timestamp queries, GPU time per frame; otherwise "not supported".
# Usage: scripts/bench-gpu-grid.sh [FRAMES] [N...]      (defaults: 200 frames, N = 10 32 64)
# Environment: BENCH_DIR (default: a fresh temporary folder), BENCH_SIZE (default 1280x720), CARGO_TARGET_DIR,
#   BENCH_PROFILE (release, or dev for a quick check), BENCH_NO_BUILD=1 (use the binaries already built),
#   WGPU_ADAPTER_NAME / WGPU_BACKEND (adapter choice).
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-200}
shift || true
grids=("$@")
[ ${#grids[@]} -gt 0 ] || grids=(10 32 64)
work=${BENCH_DIR:-$(mktemp -d)}
size=${BENCH_SIZE:-1280x720}

profile=${BENCH_PROFILE:-release}
if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then
  cargo build --profile "$profile" --bin bonescope --example generate >&2
fi
out=${CARGO_TARGET_DIR:-target}/$([ "$profile" = dev ] && echo debug || echo "$profile")
bin=$(realpath "$out/bonescope")
gen=$(realpath "$out/examples/generate")
[ -s "$work/character.smd" ] || "$gen" character "$work" 64 10000 2>/dev/null

rows=()
adapter=""
for n in "${grids[@]}"; do
  log=$("$bin" render "$work/character.smd" "$work/character_wave.smd" --grid "$n" --bench-frames "$frames" \
    --size "$size" 2>&1) || { echo "$log" >&2; exit 1; }
  adapter=$(grep -m1 '^adapter:' <<<"$log" | cut -d' ' -f2-)
  model=$(grep -m1 'instance(s)' <<<"$log")
  wall=$(grep -m1 'frames: median' <<<"$log")
  gpu=$(grep -m1 '^GPU time' <<<"$log" || echo "GPU time: not reported")
  rows+=("$(python3 - "$n" "$model" "$wall" "$gpu" <<'PY'
import re, sys
n, model, wall, gpu = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
m = re.search(r"median ([\d.]+) ms/frame \(p10 ([\d.]+), p90 ([\d.]+)\) = ([\d.]+) frames/s", wall)
g = re.search(r"median ([\d.]+) ms/frame \(p10 ([\d.]+), p90 ([\d.]+)\)", gpu)
inst = re.search(r"(\d+) instance\(s\) × (\d+) vertices / (\d+) triangles, (\d+) bones", model)
gpu_cell = f"{g.group(1)} ({g.group(2)}–{g.group(3)})" if g else "not supported"
fps = f"{1000 / float(g.group(1)):.0f}" if g else "—"
print(f"| {n}×{n} | {int(inst.group(1)):,} | {int(inst.group(2)):,} × {inst.group(4)} bones | {m.group(1)} ({m.group(2)}–{m.group(3)}) | "
      f"{m.group(4)} | {gpu_cell} | {fps} |")
PY
)")
done

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), adapter: $adapter, $size, $frames frames per run; bonescope $(git rev-parse --short HEAD) ($profile build)"
echo
echo "| grid | instances | model | wall ms/frame, median (p10–p90) | wall frames/s | GPU ms/frame (timestamps), median (p10–p90) | GPU-bound frames/s |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
