#!/usr/bin/env bash
# The fuzz targets of fuzz/ (cargo-fuzz, libFuzzer), seeded with the conformance corpus.
#
#   scripts/fuzz.sh build                 build every target (fails when one does not build)
#   scripts/fuzz.sh smoke [SECONDS]       build, then run every target SECONDS (default 30) each from its seeds:
#                                         fails when a target crashes, leaks or times out
#   scripts/fuzz.sh long TARGET [SECONDS] one long run (default 3600 s, one process), appending its result
#                                         (target, date, duration, runs, findings) to fuzz/runs.tsv
#
# The targets need a nightly compiler for the sanitizer flags: `cargo +nightly` when a nightly toolchain is
# installed, else the stable compiler with RUSTC_BOOTSTRAP=1 (the same compiler, its unstable flags allowed).
# cargo-fuzz is installed (cargo install --locked) when missing. BONESCOPE_CORPUS names the corpus (default
# ../shared/corpus beside the checkout).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
corpus="${BONESCOPE_CORPUS:-$(cd .. && pwd)/shared/corpus}"

if ! command -v cargo-fuzz >/dev/null 2>&1 && [ ! -x "$HOME/.cargo/bin/cargo-fuzz" ]; then
  cargo install cargo-fuzz --locked --version 0.13.2 >&2
fi
export PATH="$HOME/.cargo/bin:$PATH"
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  fuzz=(cargo +nightly fuzz)
else
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
fi

targets() {
  sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^bonescope-fuzz$'
}

# Fills fuzz/corpus/TARGET (cargo-fuzz's working folder, not committed) with the target's seeds.
seed() {
  local target=$1 dir="fuzz/corpus/$1"
  mkdir -p "$dir"
  [ -d "fuzz/seeds/$target" ] && cp -f "fuzz/seeds/$target"/* "$dir"/ 2>/dev/null || true
  local line
  line=$(grep -E "^$target( |$)" fuzz/seeds.txt || true)
  for pattern in ${line#"$target"}; do
    # shellcheck disable=SC2086 # the glob is meant to expand
    for file in "$corpus"/$pattern; do
      [ -f "$file" ] && cp -f "$file" "$dir/$(basename "$file")"
    done
  done
}

dict_args() {
  [ -f "fuzz/dict/$1.dict" ] && echo "-dict=$root/fuzz/dict/$1.dict"
  true
}

build() {
  (cd fuzz && "${fuzz[@]}" build --release --debug-assertions)
}

case "${1:-}" in
  build)
    build
    ;;
  smoke)
    seconds=${2:-30}
    build
    for target in $(targets); do
      seed "$target"
      echo "fuzz: $target for ${seconds} s" >&2
      # -rss_limit_mb: an allocation sized by an unchecked count shows as a crash, not as a slow machine.
      (cd fuzz && "${fuzz[@]}" run --release --debug-assertions "$target" "corpus/$target" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 $(dict_args "$target") \
        2>"$root/fuzz/corpus/$target.log") || { tail -40 "fuzz/corpus/$target.log" >&2; echo "fuzz: $target failed" >&2; exit 1; }
      grep -E '^stat::number_of_executed_units' "fuzz/corpus/$target.log" >&2 || true
    done
    ;;
  long)
    target=${2:?which target}
    seconds=${3:-3600}
    build
    seed "$target"
    log="fuzz/corpus/$target.long.log"
    started=$(date -u +%Y-%m-%d)
    status=0
    (cd fuzz && "${fuzz[@]}" run --release --debug-assertions "$target" "corpus/$target" -- \
      -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
      $(dict_args "$target") 2>"$root/$log") || status=$?
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
    findings=$(find "fuzz/artifacts/$target" -type f 2>/dev/null | wc -l)
    printf '%s\t%s\t%s\t%s\t%s\n' "$target" "$started" "$seconds" "${runs:-0}" "$findings" >> fuzz/runs.tsv
    echo "fuzz: $target ran $seconds s, $runs runs, $findings findings (exit $status)" >&2
    exit "$status"
    ;;
  *)
    sed -n '2,12p' "$0" >&2
    exit 2
    ;;
esac
