#!/usr/bin/env bash
# Side-by-side, whole-process comparison of `bonescope info` and `assimp info` (Debian's assimp-utils), printed as
# one Markdown table. Cases:
#   (a) WusonSMD.smd (corpus) with its triangles repeated to ~18 MB: Half-Life 1 style, one bone, links count 0
#   (b) a generated Source-style SMD (~20 MB: 30 bones, two links per vertex)
#   (c) MotionCaptureROM.ase (corpus) with its objects repeated to ~20 MB
#   (d) a generated GothicSourcer-shaped ASC (~20 MB: bones with long *TM_ANIMATION lists, small skinned meshes)
#       (a)–(d) each with both cores and pinned to one (`taskset -c 0`), and next to both the floor of any loader
#       here (`examples/read_floor.rs`): the process started, the file read into fresh memory as the loaders
#       read it, one pass over its lines; assimp's time over the floor is the highest ratio a loader could reach
#   (e) one ~100 kB SMD and one ~100 kB ASC: CPU time (user + sys) of the whole process
#   (f) a loop over 300 generated ~100 kB files of the shapes real files have (SMD reference, SMD animation,
#       Gothic ASC body, Gothic ASC animation), each in a folder of its own: one process per file
#   (g) bonescope alone: a 17.5 MB PSK (200k wedges, normals in the file) and a 12.8 MB PSA (400k keys), CPU
#       time of the whole process less that of the same program on a tiny file, as file bytes per second
#   (i) not in the default set: the corpus's compiled GoldSrc models (man.mdl with its texture and sequence-group
#       files, chrome_sphere.mdl, alpha_test.mdl with its 512 × 512 texture), copied into BENCH_DIR: whole process
#   (h) not in the default set: (a) and (d) on both cores as a user meets them, each run after three idle
#       seconds (`--prepare "sleep 3"`): on a virtual machine that hands freed memory back to its host, a first
#       open pays for fresh memory far more than back-to-back runs do (BENCHMARKS.md, "First open after an idle
#       moment")
# Runs alternate: ROUNDS rounds, each running both programs RUNS times (hyperfine, one warm-up); medians and
# min–max over all runs, CPU time the mean of hyperfine's user + sys.
#
# Usage: scripts/bench-vs-assimp.sh [ROUNDS] [RUNS]   (defaults 3 and 3)
# Environment: BONESCOPE_CORPUS (default ../shared/corpus, read only: copies are generated into BENCH_DIR),
#   BENCH_DIR (default: a fresh temporary folder), CARGO_TARGET_DIR, BENCH_NO_BUILD=1 (use the binaries already
#   built), BONESCOPE_BIN (another build of the program, e.g. an older one for a before/after, or the viewer's
#   dynamically linked program `target/release/bonescope`), BENCH_CASES
#   (e.g. "a c e" to run some cases only).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
runs=${2:-3}
corpus=${BONESCOPE_CORPUS:-../shared/corpus}
work=${BENCH_DIR:-$(mktemp -d)}
cases=${BENCH_CASES:-a b c d e f g}
prepare=""  # a command hyperfine runs before each run (case h)
mkdir -p "$work"

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v assimp >/dev/null || need+=(assimp-utils)
command -v taskset >/dev/null || need+=(util-linux)
if [ ${#need[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >/dev/null
fi

# The program without the viewer (what a batch job needs), with the generator and the read floor.
if [ "${BENCH_NO_BUILD:-0}" != 1 ]; then
  cargo build --release --no-default-features --features cli --bin bonescope --example generate --example read_floor \
    >/dev/null
fi
out=${CARGO_TARGET_DIR:-target}/release
bin=$(realpath "${BONESCOPE_BIN:-$out/bonescope}")
gen=$(realpath "$out/examples/generate")
floor=$(realpath "$out/examples/read_floor")

has() { [[ " $cases " == *" $1 "* ]]; }

# Inputs (skipped when already there, so BENCH_DIR can be reused).
make() { [ -s "$work/$1" ] || "$gen" "${@:2}" 2>/dev/null; }
has a && make wuson.smd repeat "$corpus/smd/WusonSMD.smd" "$work/wuson.smd" 18.4
has b && make source.smd smd "$work/source.smd" 20
has c && make mocap.ase repeat "$corpus/ase/MotionCaptureROM.ase" "$work/mocap.ase" 20
has d && make gothic.asc gothic "$work/gothic.asc" 20
if has e || has f; then
  [ -d "$work/small" ] || "$gen" small-set "$work/small" 300 2>/dev/null
  find "$work/small" -type f | sort >"$work/small.list"
fi
if has i; then
  mkdir -p "$work/mdl"
  cp "$corpus"/mdl/hl1/compiled_models/{man,manT,man01,chrome_sphere,alpha_test}.mdl "$work/mdl/"
fi
if has g; then
  make large.psk psk "$work/large.psk"
  make large.psa psa "$work/large.psa"
  [ -s "$work/tiny.smd" ] || printf 'version 1\nnodes\n0 "root" -1\nend\nskeleton\ntime 0\n0 0 0 0 0 0 0\nend\n' >"$work/tiny.smd"
fi

# measure LABEL CMD_A [CMD_B [CMD_C]]: ROUNDS alternating hyperfine rounds; appends one JSON line per round.
measure() {
  local label=$1; shift
  local r
  : >"$work/$label.rounds"
  for r in $(seq "$rounds"); do
    hyperfine -N --warmup 1 --runs "$runs" ${prepare:+--prepare "$prepare"} --export-json "$work/$label.json" "$@" \
      >/dev/null 2>&1
    python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["results"]))' "$work/$label.json" \
      >>"$work/$label.rounds"
  done
}

# row LABEL FILE CORES TARGET: one table row from the rounds of LABEL (bonescope first, assimp second, the floor
# third where measured).
row() {
  python3 - "$work/$1.rounds" "$2" "$3" "$4" <<'PY'
import json, statistics, sys, os
path, file, cores, target = sys.argv[1:5]
rounds = [json.loads(l) for l in open(path)]
def stats(i):
    times = [t for r in rounds for t in r[i]["times"]]
    cpu = statistics.mean(r[i]["user"] + r[i]["system"] for r in rounds)
    return statistics.median(times), min(times), max(times), cpu
ours, theirs = stats(0), stats(1)
ms = lambda s: f"{s * 1000:.1f}"
size = sum(os.path.getsize(l.strip()) for l in open(file)) if file.endswith(".list") else os.path.getsize(file)
name = f"{sum(1 for _ in open(file))} files" if file.endswith(".list") else os.path.basename(file)
ratio = theirs[0] / ours[0]
cpu_ratio = theirs[3] / ours[3]
floor = f"{ms(stats(2)[0])} ({theirs[0] / stats(2)[0]:.1f}×)" if len(rounds[0]) > 2 else "—"
print(f"| {name} | {size / 1e6:.2f} MB | {cores} | {ms(ours[0])} ({ms(ours[1])}–{ms(ours[2])}) | "
      f"{ms(theirs[0])} ({ms(theirs[1])}–{ms(theirs[2])}) | **{ratio:.1f}×** | {ms(ours[3])} / {ms(theirs[3])} "
      f"({cpu_ratio:.1f}×) | {floor} | {target} |")
PY
}

# throughput LABEL FILE: bonescope alone, CPU time of the load (the program on FILE less on a tiny file).
throughput() {
  python3 - "$work/$1.rounds" "$2" <<'PY'
import json, statistics, sys, os
path, file = sys.argv[1:3]
rounds = [json.loads(l) for l in open(path)]
cpu = lambda i: [r[i]["user"] + r[i]["system"] for r in rounds]
big, tiny = cpu(0), cpu(1)
load = [b - statistics.mean(tiny) for b in big]
size = os.path.getsize(file)
times = [t for r in rounds for t in r[0]["times"]]
mbs = sorted(size / l / 1e6 for l in load)
print(f"| {os.path.basename(file)} (bonescope alone) | {size / 1e6:.2f} MB | 2 | {statistics.median(times) * 1000:.1f} "
      f"({min(times) * 1000:.1f}–{max(times) * 1000:.1f}) | — | — | {statistics.mean(big) * 1000:.1f} / — "
      f"(load {statistics.mean(load) * 1000:.1f} ms: {statistics.median(mbs):.0f} MB/s, {mbs[0]:.0f}–{mbs[-1]:.0f}) "
      f"| — | ≥ 1,000 MB/s CPU |")
PY
}

rows=()
for c in a b c d; do
  has $c || continue
  case $c in
    a) f=$work/wuson.smd ;;
    b) f=$work/source.smd ;;
    c) f=$work/mocap.ase ;;
    d) f=$work/gothic.asc ;;
  esac
  measure "$c-2" "$bin info $f" "assimp info $f" "$floor $f"
  rows+=("$(row "$c-2" "$f" 2 "≥ 10×")")
  measure "$c-1" "taskset -c 0 $bin info $f" "taskset -c 0 assimp info $f" "taskset -c 0 $floor $f"
  rows+=("$(row "$c-1" "$f" "1 (taskset)" "≥ 6×")")
done
if has e; then
  for f in $(grep -m1 'ref.smd' "$work/small.list") $(grep -m1 'BODY.ASC' "$work/small.list"); do
    label=e-$(basename "$f")
    runs_saved=$runs
    runs=$((runs * 10))
    measure "$label" "$bin info $f" "assimp info $f"
    runs=$runs_saved
    rows+=("$(row "$label" "$f" 2 "bonescope CPU ≤ 2 ms")")
  done
fi
if has f; then
  measure f "xargs -a $work/small.list -n 1 $bin info" "xargs -a $work/small.list -n 1 assimp info"
  rows+=("$(row f "$work/small.list" 2 "≥ 3×")")
fi
if has i; then
  runs_saved=$runs
  runs=$((runs * 10))
  for f in "$work/mdl/man.mdl" "$work/mdl/chrome_sphere.mdl" "$work/mdl/alpha_test.mdl"; do
    label=i-$(basename "$f")
    measure "$label" "$bin info $f" "assimp info $f"
    rows+=("$(row "$label" "$f" 2 "—")")
  done
  runs=$runs_saved
fi
if has h; then
  [ -s "$work/wuson.smd" ] || "$gen" repeat "$corpus/smd/WusonSMD.smd" "$work/wuson.smd" 18.4 2>/dev/null
  [ -s "$work/gothic.asc" ] || "$gen" gothic "$work/gothic.asc" 20 2>/dev/null
  prepare="sleep 3"
  for f in "$work/wuson.smd" "$work/gothic.asc"; do
    label=h-$(basename "$f")
    measure "$label" "$bin info $f" "assimp info $f" "$floor $f"
    rows+=("$(row "$label" "$f" "2, after 3 s idle" "—")")
  done
  prepare=""
fi
if has g; then
  # Ten times the runs, as for the 100 kB files: a load of 20 ms swings by a third from run to run here, and
  # three runs a round let one slow run decide the round.
  runs_saved=$runs
  runs=$((runs * 10))
  for f in "$work/large.psk" "$work/large.psa"; do
    label=g-$(basename "$f")
    measure "$label" "$bin info $f" "$bin info $work/tiny.smd"
    rows+=("$(throughput "$label" "$f")")
  done
  runs=$runs_saved
fi

echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)),"\
  "load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $rounds alternating rounds × $runs runs each"\
  "(× 10 for the 100 kB files and the PSK/PSA); bonescope ${BONESCOPE_BIN:-$(git rev-parse --short HEAD)},"\
  "assimp $(assimp version 2>/dev/null | grep -m1 -io 'version [0-9.]*' || echo '(version unknown)')"
echo
echo "| file | size | cores | bonescope median (min–max), ms | assimp median (min–max), ms | ratio (wall) | CPU user + sys, ms: bonescope / assimp | floor: read + one pass, median ms (assimp ÷ floor) | target |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
