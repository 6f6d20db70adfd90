#!/usr/bin/env bash
# Installs the Khronos glTF validator (npm package gltf-validator) into tools/node_modules for the export tests.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -f tools/node_modules/gltf-validator/package.json ]; then
  echo "gltf-validator: present"
  exit 0
fi
command -v npm >/dev/null || { echo "npm is needed to install gltf-validator" >&2; exit 1; }
mkdir -p tools
npm install --silent --no-audit --no-fund --prefix tools gltf-validator@2.0.0-dev.3.10
