#!/usr/bin/env bash
# Builds the web page (the viewer compiled to WebAssembly, web/index.html beside it) into web/dist, or into the
# folder given as $1, and prints that folder's path. Serve it with any static file server, e.g.
#   python3 -m http.server --directory "$(scripts/build-web.sh)"
# and open http://localhost:8000/?open=model.psk (files of the same site) or drop files on the page.
# Installs what it needs: the wasm32 target of the Rust toolchain and the wasm-bindgen command-line tool of the
# exact version the module was built with.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=${1:-web/dist}

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown >&2
fi
bindgen_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print }' web/Cargo.lock)
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $bindgen_version"; then
    cargo install wasm-bindgen-cli --version "$bindgen_version" >&2
fi

(cd web && cargo build --release --locked --target wasm32-unknown-unknown >&2)

rm -rf "$out"
mkdir -p "$out"
wasm-bindgen --target web --no-typescript --out-dir "$out" \
    web/target/wasm32-unknown-unknown/release/bonescope_web.wasm >&2
cp web/index.html "$out/"

# What a browser downloads, compressed as a server would send it (gzip -9), and uncompressed.
raw=0
gz=0
for f in "$out"/*; do
    raw=$((raw + $(stat -c %s "$f")))
    gz=$((gz + $(gzip -9 -c "$f" | wc -c)))
done
echo "web page: $((raw / 1024)) KiB, $((gz / 1024)) KiB gzip-compressed" >&2
cd "$out" && pwd
