#!/usr/bin/env bash
# Builds the `bonescope` program for batch work: the command-line subcommands without the viewer (`info`, `pose`,
# `export`, `check`), in release mode, and on Linux with glibc linked statically at a fixed address.
#
# Why a separate build: a batch run often starts the program once per file, and most real files are small, so
# the start-up is a large part of what a user waits for. The viewer needs the system's graphics libraries, which
# it loads at run time, so its program is linked dynamically; then every start maps libc, libm and libgcc_s and
# binds their symbols: `bonescope --version` costs 0.81 ms of CPU, the static program 0.33 ms, no more than
# `/bin/true` (BENCHMARKS.md "Start-up and linking"). Both programs run the same loaders and print the same
# output (.ci/run compares them).
#
# Usage: scripts/build-cli.sh [CARGO ARGS…]   (e.g. `--example generate` to build the benchmark's generator too)
# Prints the path of the program. Environment: CARGO_TARGET_DIR as for cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
host=$(rustc -vV | sed -n 's/^host: //p')
flags=""
case $host in
  # `--target` keeps these flags off build scripts and procedural macros, which must stay dynamic.
  *-linux-gnu) flags="-C target-feature=+crt-static -C relocation-model=static" ;;
esac
RUSTFLAGS="${RUSTFLAGS:-} $flags" cargo build --release --target "$host" --no-default-features --features cli \
  --bin bonescope "$@" >&2
echo "$(realpath "${CARGO_TARGET_DIR:-target}")/$host/release/bonescope"
