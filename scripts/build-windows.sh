#!/usr/bin/env bash
# Cross-builds bonescope (the viewer and the command line, one program) for 64-bit Windows on Debian/Ubuntu and
# packs it: prints the path of a zip holding bonescope.exe, README.md, the licence texts (LICENSE-MIT,
# LICENSE-APACHE) and those of everything linked into it (THIRD-PARTY-LICENSES.txt for the Rust crates,
# written by scripts/third-party-licenses.py; licenses/ for the Rust standard library and the MinGW-w64
# runtime).
#
#   scripts/build-windows.sh [--profile PROFILE] [OUT_DIR]
#
# PROFILE is a cargo profile, `release` by default (what to hand to users); CI builds `wine-ci` (Cargo.toml), the
# same code unoptimised, which builds in a fraction of the time. The zip goes to OUT_DIR, `target/windows` by
# default.
#
# Installs what it needs, only what is missing: the Rust standard library for x86_64-pc-windows-gnu (rustup)
# and Debian's MinGW-w64 cross compiler and binutils (gcc-mingw-w64-x86-64, with apt), which link the program.
# The .exe needs no DLL beyond those Windows has: the script checks its imports.
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-pc-windows-gnu
profile=release
if [ "${1:-}" = "--profile" ]; then
    profile=$2
    shift 2
fi
out=${1:-${CARGO_TARGET_DIR:-target}/windows}

if ! rustup target list --installed | grep -qx "$target"; then
    rustup target add "$target" >&2
fi
packages=(gcc-mingw-w64-x86-64 binutils-mingw-w64-x86-64)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing: ${missing[*]}" >&2
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cargo build --locked --profile "$profile" --target "$target" --bin bonescope >&2
profile_dir=$profile
[ "$profile" = dev ] && profile_dir=debug
exe="${CARGO_TARGET_DIR:-target}/$target/$profile_dir/bonescope.exe"

# Every DLL the program imports must be one Windows has; a MinGW runtime DLL (libgcc_s_seh-1.dll,
# libwinpthread-1.dll) would have to ship beside it.
imports=$(x86_64-w64-mingw32-objdump -p "$exe" | sed -n 's/^\s*DLL Name: //p' | sort -u)
foreign=$(grep -iE '^(lib|mingw)' <<<"$imports" || true)
if [ -n "$foreign" ]; then
    echo "error: bonescope.exe needs DLLs Windows does not have: $foreign" >&2
    exit 1
fi

version=$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"] == "bonescope"))')
name="bonescope-$version-windows-x86_64"
mkdir -p "$out"
out=$(cd "$out" && pwd)
stage="$out/$name"
rm -rf "$stage" "$out/$name.zip"
mkdir -p "$stage/licenses"
# Debug information in the release profile is DWARF, which Windows' debuggers do not read: it is left out.
x86_64-w64-mingw32-strip --strip-debug -o "$stage/bonescope.exe" "$exe"
cp README.md LICENSE-MIT LICENSE-APACHE "$stage/"
python3 scripts/third-party-licenses.py "$target" "$stage/THIRD-PARTY-LICENSES.txt"
cp "$(rustc --print sysroot)/share/doc/rust/COPYRIGHT-library.html" "$stage/licenses/rust-standard-library.html"
cp /usr/share/doc/mingw-w64-common/copyright "$stage/licenses/mingw-w64-runtime.txt"
(cd "$out" && python3 -m zipfile -c "$name.zip" "$name")
echo "windows build: $(($(stat -c %s "$stage/bonescope.exe") / 1024)) KiB exe, $(($(stat -c %s "$out/$name.zip") / 1024)) KiB zip" >&2
echo "$out/$name.zip"
