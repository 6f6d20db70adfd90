#!/usr/bin/env bash
# Runs the Windows program (the zip scripts/build-windows.sh made) under Wine and checks that it says what the
# Linux program says about the same files: `--version`, `info --json`, `pose --json`, `check --json` and
# `export` (the .glb) on corpus files, each with the same exit status. The Windows program is handed Windows
# paths (`Z:\…\file`, Wine's drive Z: being the Linux root), and a model script that names its files by
# absolute paths with a drive letter, backslashes and another case than the disk's; the comparison
# (scripts/wine/same_output.py) lets paths differ in their spelling only. Last, the viewer opens that QC in a
# window on Xvfb and takes a screenshot (Vulkan on lavapipe through Wine), which must show the character.
#
#   scripts/test-windows.sh ZIP LINUX_BONESCOPE [CORPUS]
#
# CORPUS defaults to $BONESCOPE_CORPUS. Installs Wine (Debian's wine64) when it is missing. Wine 8.0, Debian
# bookworm's, lacks bcryptprimitives.dll, which Rust programs import since Windows 10 has it: the test's Wine
# prefix gets a small one (scripts/wine/bcryptprimitives.c).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
zip=$(realpath "$1")
linux=$(realpath "$2")
corpus=$(realpath "${3:-${BONESCOPE_CORPUS:?give the corpus folder or set BONESCOPE_CORPUS}}")

if ! dpkg-query -W -f='${Status}' wine64 2>/dev/null | grep -q "install ok installed"; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "installing: wine64" >&2
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends wine64 >/dev/null
fi
wine=$(command -v wine64 || echo /usr/lib/wine/wine64)
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)

work=$(mktemp -d)
export WINEPREFIX="$work/prefix" WINEARCH=win64 WINEDEBUG=-all
# No Mono or Gecko: Wine would offer to download them while creating the prefix.
export WINEDLLOVERRIDES="mscoree,mshtml="
cleanup() {
    "$wineserver" -k 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)
"$wine" wineboot -i >/dev/null 2>&1
x86_64-w64-mingw32-gcc -O2 -shared -Wl,--kill-at -o "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll" \
    scripts/wine/bcryptprimitives.c -ladvapi32
# One Wine server for every run below instead of one started (and stopped) per run, once wineboot's has ended.
"$wineserver" -w
"$wineserver" -p
echo "wine prefix ready in $(($(date +%s) - started)) s" >&2

python3 -m zipfile -e "$zip" "$work/unzipped"
exe=$(echo "$work"/unzipped/*/bonescope.exe)
out="$work/out"
mkdir -p "$out"

# A Linux path as the Windows program is given it.
winpath() { local p=${1//\//\\}; printf 'Z:%s' "$p"; }

passed=0
failed=0
fail() {
    echo "FAILED: $*" >&2
    failed=$((failed + 1))
}

# same LABEL ARGS…: runs both programs with ARGS (absolute paths converted for Windows; the word OUT is a file
# each program writes, the same path for both, compared too) and compares exit status, standard output (but for
# `check`, whose summary says how long it took) and OUT.
same() {
    local label=$1
    shift
    local linux_args=() windows_args=() writes=""
    for a in "$@"; do
        case $a in
            OUT)
                writes="$out/$label.file"
                linux_args+=("$writes")
                windows_args+=("$(winpath "$writes")")
                ;;
            /*)
                linux_args+=("$a")
                windows_args+=("$(winpath "$a")")
                ;;
            *)
                linux_args+=("$a")
                windows_args+=("$a")
                ;;
        esac
    done
    local linux_status=0 windows_status=0
    "$linux" "${linux_args[@]}" >"$out/$label.linux" 2>"$out/$label.linux.err" || linux_status=$?
    if [ -n "$writes" ] && [ -e "$writes" ]; then mv "$writes" "$out/$label.linux.file"; fi
    "$wine" "$exe" "${windows_args[@]}" >"$out/$label.windows" 2>"$out/$label.windows.err" || windows_status=$?
    if [ -n "$writes" ] && [ -e "$writes" ]; then mv "$writes" "$out/$label.windows.file"; fi
    local ok=1
    if [ "$linux_status" != "$windows_status" ]; then
        fail "$label: exit status $windows_status on Windows, $linux_status on Linux"
        sed 's/^/  windows: /' "$out/$label.windows.err" | head -5 >&2
        ok=""
    fi
    if [[ $label != check* ]] && ! python3 scripts/wine/same_output.py "$out/$label.linux" "$out/$label.windows" >&2; then
        fail "$label: standard output"
        ok=""
    fi
    if [ -n "$writes" ]; then
        python3 scripts/wine/same_output.py "$out/$label.linux.file" "$out/$label.windows.file" >&2 || {
            fail "$label: the file written"
            ok=""
        }
    fi
    if [ -n "$ok" ]; then
        passed=$((passed + 1))
        echo "ok: $label" >&2
    fi
}

same version --version
q=$corpus/qc/halflife/models/headcrab/headcrab.qc
mds=$corpus/mds/gothic/Anims/BLOODFLY.MDS
mms=$corpus/mds/gothic/Anims/ASC_MORPHMESH/HEADS/HUM_HEAD_FATBALD/HUM_HEAD_FATBALD.MMS
gnome=("$corpus/psk/hp2_skgnomeMesh.psk" "$corpus/psa/hp2_skgnomeAnims.psa")
for f in smd/WusonSMD.smd smd/pathos_replica_walk.smd vta/bst_Cube_NoArmature.vta ase/MotionCaptureROM.ase \
    ase/ThreeCubesGreen_UTF16LE.ASE psk/Suzanne.psk; do
    same "info-${f//\//-}" info --json "$corpus/$f"
done
same info-headcrab info --json "$q"
same info-bloodfly info --json "$mds"
same info-fatbald info --json "$mms"
same info-gnome info --json "${gnome[@]}"
same info-kit info --json "$corpus/psk/kit_SK_MaleBase_01_Body.psk" "$corpus/psk/kit_SK_Male_TShirt_01.psk" \
    "$corpus/psa/kit_MOB1_M1_Walk_Relaxed_F_Loop_IP.psa"
same pose-headcrab pose --json "$q" --clip run --time 0.3
same pose-bloodfly pose --json "$mds" --time 0.5
same pose-gnome pose --json "${gnome[@]}" --time 0.25
same export-headcrab export "$q" -o OUT
same export-bloodfly export "$mds" -o OUT
same export-gnome export "${gnome[@]}" -o OUT
same check-trees check "$corpus/qc/halflife" "$corpus/mds/gothic" --json OUT --fail-on never

# A QC that names everything by absolute path as written on Windows: a drive letter, backslashes, and folder
# names in another case than the disk's (Windows' file systems ignore case; the program must still report the
# files as the disk names them). The Linux program reads the same QC with the paths spelled its way.
crab=$corpus/qc/halflife/models/headcrab
mkdir -p "$work/qc"
drive_crab=$(winpath "$(dirname "$crab")")\\HEADCRAB
drive_qci=$(winpath "$corpus/qc/halflife/models/shared/includes/common/headcrab/LD")\\TexturePath.qci
drive_textures=$(winpath "$corpus/qc/halflife/textures")\\HeadCrab
sed -e "s|^\$cd .*|\$cd \"${drive_crab//\\/\\\\}\"\n\$cdtexture \"${drive_textures//\\/\\\\}\"|" \
    -e "s|^\$include .*|\$include \"${drive_qci//\\/\\\\}\"|" "$q" >"$work/qc/windows.qc"
grep -q 'HEADCRAB' "$work/qc/windows.qc"
python3 - "$work/qc/windows.qc" "$work/qc/crab.qc" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="latin-1").read()
# The same script as written on Linux: `Z:\x\y` → `/x/y`.
linux = re.sub(r'"Z:(\\[^"]*)"', lambda m: '"' + m.group(1).replace("\\", "/") + '"', text)
open(sys.argv[2], "w", encoding="latin-1").write(linux)
EOF
linux_status=0
"$linux" info --json "$work/qc/crab.qc" >"$out/drive-letters.linux" 2>"$out/drive-letters.linux.err" || linux_status=$?
cp "$work/qc/windows.qc" "$work/qc/crab.qc"
windows_status=0
"$wine" "$exe" info --json "$(winpath "$work/qc/crab.qc")" >"$out/drive-letters.windows" 2>"$out/drive-letters.windows.err" || windows_status=$?
if [ "$linux_status" = "$windows_status" ] &&
    python3 scripts/wine/same_output.py "$out/drive-letters.linux" "$out/drive-letters.windows" >&2 &&
    python3 - "$out/info-headcrab.linux" "$out/drive-letters.windows" <<'EOF'; then
import json, sys
corpus_qc, windows = (json.load(open(p))[0] for p in sys.argv[1:3])
# Everything was found: the mesh, every sequence's file, every texture, and so the same clips as the QC itself.
script = windows["script"]
missing = [c["name"] for g in script["body_groups"] for c in g["choices"] if c.get("path") is None]
missing += [s["name"] for s in script["sequences"] if None in s["paths"]]
missing += [m["name"] for m in windows["materials"] if m.get("texture_path") is None]
if missing or len(windows["clips"]) != len(corpus_qc["clips"]):
    sys.exit(f"not found: {missing}; {len(windows['clips'])} clips, the corpus QC has {len(corpus_qc['clips'])}")
EOF
    passed=$((passed + 1))
    echo "ok: drive-letters" >&2
else
    fail "drive-letters: exit status $windows_status on Windows, $linux_status on Linux, other output, or files not found"
fi

# The viewer: a window on Xvfb, drawn with Vulkan through Wine's winevulkan on the host's lavapipe (Wine needs its
# X11 driver for Vulkan even off screen), opening the corpus QC by its Windows path; its screenshot must show the
# character. Wine's server of the runs above was started without a display, so a fresh one starts with it.
"$wineserver" -k
"$wineserver" -w
shot="$out/viewer.png"
shot_status=0
WGPU_BACKEND=vulkan timeout 600 xvfb-run -a -s "-screen 0 1600x900x24" \
    "$wine" "$exe" "$(winpath "$q")" --screenshot "$(winpath "$shot")" >"$out/viewer.log" 2>&1 || shot_status=$?
if [ "$shot_status" = 0 ] && python3 scripts/wine/viewer_shot.py "$shot" 1600 900 >&2; then
    passed=$((passed + 1))
    echo "ok: viewer" >&2
else
    fail "viewer: exit status $shot_status"
    tail -5 "$out/viewer.log" >&2
fi

echo "windows (Wine) comparison, $((($(date +%s) - started))) s"
echo "windows: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
