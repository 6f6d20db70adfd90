#!/usr/bin/env bash
# Installs the system packages bonescope's viewer and tests need on Debian/Ubuntu: a software Vulkan driver
# (lavapipe) so rendering works without a GPU, Xvfb for the windowed smoke tests, the X11 libraries winit
# loads at run time, and chromium (a test opens the `bonescope check --html` page in a headless browser).
# Does nothing when they are already present.
set -euo pipefail
packages=(mesa-vulkan-drivers libvulkan1 libgl1-mesa-dri libegl1 libegl-mesa0 xvfb xauth
          libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0 libxkbcommon0 chromium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "system packages: all present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing: ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
