#!/usr/bin/env bash
# `bonescope info` whole process on an SMD whose 17 textures are all missing, in a folder of 2,700 other files:
# the texture search lists each folder once (a case-insensitive index of its names), so the folder's size costs
# one directory read, not a `stat` per name per entry. Also times the same SMD alone in a folder, for the
# difference the big folder makes. Usage: scripts/bench-info-textures.sh [RUNS] (default 30). Needs hyperfine
# (installed with apt when missing). Target: under 20 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-30}
work=${BENCH_DIR:-$(mktemp -d)}

if ! command -v hyperfine >/dev/null; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq hyperfine >/dev/null
fi

cargo build --release --no-default-features --features cli --bin bonescope >&2
bin=${CARGO_TARGET_DIR:-target}/release/bonescope

mkdir -p "$work/big" "$work/alone"
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
# 2,700 files of the kind a game's texture folder holds, none of them the SMD's textures.
for i in range(2700):
    open(os.path.join(work, "big", f"texture_{i:04d}.TGA"), "w").close()
# An SMD with 17 materials (17 textures to look for), one triangle each, on one bone.
lines = ["version 1", "nodes", '0 "root" -1', "end", "skeleton", "time 0", "0 0 0 0 0 0 0", "end", "triangles"]
for m in range(17):
    lines.append(f"skin_{m:02d}.bmp")
    for k, (x, y) in enumerate([(0, 0), (1, 0), (0, 1)]):
        lines.append(f"0 {x + m} {y} 0 0 0 1 {x} {y}")
lines.append("end")
text = "\n".join(lines) + "\n"
for folder in ("big", "alone"):
    open(os.path.join(work, folder, "character.smd"), "w").write(text)
PY

hyperfine --warmup 3 --runs "$runs" -N --export-json "$work/info.json" \
  "$bin info $work/big/character.smd" "$bin info $work/alone/character.smd" >/dev/null
python3 - "$work/info.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
print("| folder | files | median (ms) | min (ms) | max (ms) |")
print("|---|---|---|---|---|")
for name, files, res in (("2,700 other files", 2701, r[0]), ("alone", 1, r[1])):
    print(f"| {name} | {files} | {res['median']*1000:.1f} | {res['min']*1000:.1f} | {res['max']*1000:.1f} |")
PY
