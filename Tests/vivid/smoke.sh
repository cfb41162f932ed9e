#!/usr/bin/env bash
# smoke.sh [CACHE_DIR] — shows that the vivid harness works end to end: v4l2-ctl in
# the VM lists the formats, captures one frame and lists the error-injection
# controls; the host then checks what came back. Exits 0 only if every check passes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-$here/../../.build/vivid}

# v4l2-ctl comes from the host's v4l-utils and runs in the VM with the host's libraries.
"$here/vm.sh" ensure-packages v4l-utils

# Kept under the cache (not a temp dir) so frame.raw and the console log can be inspected.
mkdir -p "$cache"
work=$(cd "$cache" && pwd)/smoke
rm -rf "$work" && mkdir -p "$work/payload/bin"
cp "$(command -v v4l2-ctl)" "$work/payload/bin/"

cat >"$work/guest.sh" <<'EOF'
set -e
D=/dev/video0
echo "--- formats (first lines of --list-formats-ext; full list in out/formats-ext.txt)"
v4l2-ctl -d $D --list-formats-ext >out/formats-ext.txt
head -n 20 out/formats-ext.txt
echo "--- capture one 640x360 YUYV frame"
v4l2-ctl -d $D --set-fmt-video=width=640,height=360,pixelformat=YUYV
v4l2-ctl -d $D --get-fmt-video | tee out/format.txt
v4l2-ctl -d $D --stream-mmap --stream-count=1 --stream-to=/payload/out/frame.raw
ls -l out/frame.raw
echo "--- error-injection controls"
v4l2-ctl -d $D --list-ctrls-menus >out/controls.txt
grep -E ' (disconnect|inject_[a-z0-9_]+|percentage_of_dropped_buffers) 0x' out/controls.txt
EOF

start=$SECONDS
set +e
"$here/vm.sh" run "$cache" "$work/payload" "$work/guest.sh" 180
status=$?
set -e
echo "smoke: boot + run + copy-back took $((SECONDS - start)) s (vm.sh exit $status)"

# --- checks on the host --------------------------------------------------------------
back=$work/payload/out-from-vm
. "$here/../lib/checks.sh"
field() { awk -F ': ' -v k="$1" '{ sub(/^[ \t]+/, "") } index($0, k) == 1 { print $2; exit }' "$back/format.txt"; }
# 4 bytes (one YUYV pixel pair) of the frame at row $1, column $2, as hex.
pixels() { od -An -tx1 -N4 -j $(( ($1 * 640 + $2) * 2 )) "$back/frame.raw" 2>/dev/null | tr -d ' \n'; }

check "script in the VM exited 0" test "$status" = 0
check "format list came back and offers YUYV 640x360" \
    grep -q "Discrete 640x360" "$back/formats-ext.txt"
check "format is 640x360 YUYV" \
    test "$(field 'Width/Height')" = "640/360" -a "$(field 'Pixel Format' | cut -c1-6)" = "'YUYV'"
size=$(stat -c %s "$back/frame.raw" 2>/dev/null || echo 0)
check "frame.raw is 640*360*2 = 460800 bytes (got $size)" test "$size" = 460800
check "frame.raw size matches the driver's Size Image" test "$size" = "$(field 'Size Image')"
# Default test pattern: 75% colour bars, white (Y=0xb3) on the left, black (Y=0x10) on the right.
check "frame shows vivid's colour bars (left $(pixels 300 0), right $(pixels 300 600))" \
    test "$(pixels 300 0)" = b380b380 -a "$(pixels 300 600)" = 10801080
check "disconnect control (0x00f0f041) present" grep -q ' disconnect 0x00f0f041 ' "$back/controls.txt"
check "inject_fatal_streaming_error control (0x00f0f046) present" \
    grep -q ' inject_fatal_streaming_error 0x00f0f046 ' "$back/controls.txt"

echo "smoke: $passed passed, $failed failed"
[ "$failed" = 0 ]
