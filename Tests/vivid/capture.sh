#!/usr/bin/env bash
# capture.sh [CACHE_DIR] [STAMPCAM_BINARY] — stampcam against the kernel's vivid camera in a VM:
# `devices`, `shoot --yes` at two sizes in YUYV and RGB24, control setting, and every error path
# vivid can produce (no such device, not a capture device, permission, busy, disconnect, fatal
# streaming error once and repeatedly, no frame). The host checks each photo: a JPEG of the right
# size, with the capture's EXIF, the stamp where the template puts it and vivid's colour bars
# elsewhere. Prints `vivid: N passed, N failed`; exits 0 only when all passed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${1:-$root/.build/vivid}
binary=${2:-$root/.build/static/release/stampcam}
[ -x "$binary" ] || { echo "capture.sh: no stampcam binary at $binary" >&2; exit 2; }

# djpeg decodes the photos on the host for the pixel checks.
"$here/vm.sh" ensure-packages libjpeg-turbo-progs

mkdir -p "$cache"
work=$(cd "$cache" && pwd)/capture
payload=$work/payload
rm -rf "$work" && mkdir -p "$payload/bin" "$payload/share"
cp "$binary" "$payload/bin/stampcam"
cp -R "$root/fonts" "$root/templates" "$payload/share/"

# name:format:capture size:--max-size:saved size (none given: the default fits the long side to 1024;
# 0 keeps the camera's size)
shoots="yuyv:YUYV:640x360::640x360 yuyv:YUYV:1280x720::1024x576 rgb:RGB24:640x360::640x360 rgb:RGB24:1280x720:0:1280x720"
{ echo "shoots=\"$shoots\""; cat "$root/Tests/lib/checks.sh"; cat <<'GUEST'
export STAMPCAM_DATA=/payload/share
D=/dev/video0
mkdir -p out
# run NAME COMMAND...: keeps the exit status, stdout and stderr of one case.
run() { name=$1; shift; "$@" >out/$name.out 2>out/$name.err; echo $? >out/$name.rc; }
# setctl NAME=VALUE: through stampcam itself, from a second process, while another one streams.
setctl() { stampcam devices --device $D --set "$1" >>out/setctl.log 2>&1; }
# streaming PID: a background shoot has mapped the camera's buffers, which it does after REQBUFS
# and right before it queues them and starts the stream. (The failsafe of the waits is long: under
# TCG, loading the binary's libraries alone takes seconds.)
streaming() { grep -q "$D" /proc/$1/maps; }
# reconnected: vivid is back after a disconnect (it reconnects once the last descriptor is closed).
reconnected() { ( : < $D ); }

run devices stampcam devices
run devices-json stampcam devices --json
run controls stampcam devices --device $D --controls
run set stampcam devices --device $D --set brightness=140 --set "test_pattern=100% Colorbar"
setctl brightness=128; setctl "test_pattern=75% Colorbar"

for c in $shoots; do
    IFS=: read tag format size maxsize saved <<EOC
$c
EOC
    run shoot-$tag-$size stampcam shoot --device $D --yes --format $format --resolution $size ${maxsize:+--max-size $maxsize} \
        --user "vivid test" --project "capture.sh" -o out/shoot-$tag-$size
done

run nosuch stampcam shoot --device /dev/video9 --yes -o out/nosuch
run notcapture stampcam shoot --device /dev/media0 --yes -o out/notcapture

chmod 600 $D
run permission su -s /bin/sh nobody -c "STAMPCAM_DATA=/payload/share /payload/bin/stampcam shoot --device $D --yes -o /tmp/perm"
chmod 666 $D

# Busy: a second program while the first streams; the first is then stopped with SIGTERM and
# must leave no file (not even a temp file) behind.
stampcam shoot --device $D --yes --resolution 640x360 --skip 400 -o out/busy-first >out/busy-first.out 2>&1 &
first=$!
wait_until 120 streaming $first
run busy stampcam shoot --device $D --yes --resolution 640x360 -o out/busy
kill -TERM $first; wait $first; echo $? >out/busy-first.rc

# Disconnect mid-stream.
stampcam shoot --device $D --yes --resolution 640x360 --skip 400 -o out/disconnect >out/disconnect.out 2>out/disconnect.err &
pid=$!
wait_until 120 streaming $pid
setctl disconnect=1
wait $pid; echo $? >out/disconnect.rc
wait_until 60 reconnected

# One fatal streaming error: one STREAMOFF/STREAMON and the photo is still taken.
stampcam shoot --device $D --yes --resolution 640x360 --skip 150 -o out/fatal-once >out/fatal-once.out 2>out/fatal-once.err &
pid=$!
wait_until 120 streaming $pid
setctl inject_fatal_streaming_error=1
wait $pid; echo $? >out/fatal-once.rc

# Fatal errors again and again, for as long as it streams: after the one restart, an error. (Each
# setctl is a process of its own; 100 of them only keep a shoot that never fails from looping on.)
stampcam shoot --device $D --yes --resolution 640x360 --skip 400 -o out/fatal-again >out/fatal-again.out 2>out/fatal-again.err &
pid=$!
wait_until 120 streaming $pid
for i in $(seq 100); do
    kill -0 $pid 2>/dev/null || break
    setctl inject_fatal_streaming_error=1
done
wait $pid; echo $? >out/fatal-again.rc

# No frame: vivid drops every buffer.
setctl percentage_of_dropped_buffers=100
run timeout stampcam shoot --device $D --yes --resolution 640x360 --skip 0 -o out/timeout
setctl percentage_of_dropped_buffers=0
exit 0
GUEST
} >"$work/guest.sh"

start=$SECONDS
set +e
VIVID_HOST_PATHS="/etc/fonts /usr/share/fonts/truetype/dejavu /usr/share/fonts/truetype/wqy" \
    "$here/vm.sh" run "$cache" "$payload" "$work/guest.sh" 300
status=$?
set -e
echo "vivid: VM run took $((SECONDS - start)) s (vm.sh exit $status)"

# --- checks on the host --------------------------------------------------------------------
back=$payload/out-from-vm
. "$here/../lib/checks.sh"
rc() { cat "$back/$1.rc" 2>/dev/null || echo none; }
has() { grep -q -- "$2" "$back/$1" 2>/dev/null; }
# patch PPM WIDTH HEIGHT X0% X1% Y0% Y1%: mean "R G B" of a rectangle (every other row).
patch() {
    local file=$1 w=$2 h=$3 header=$((${#2} + ${#3} + 9)) y
    local x0=$((w * $4 / 100)) x1=$((w * $5 / 100)) y0=$((h * $6 / 100)) y1=$((h * $7 / 100))
    for ((y = y0; y < y1; y += 2)); do
        od -An -tu1 -v -j $((header + (y * w + x0) * 3)) -N $(((x1 - x0) * 3)) "$file"
    done | awk '{ for (i = 1; i <= NF; i++) s[(n + i - 1) % 3] += $i; n += NF }
                END { c = n / 3; printf "%d %d %d\n", s[0] / c, s[1] / c, s[2] / c }'
}
distance() { echo "$1 $2" | awk '{ d = ($1-$4)^2 + ($2-$5)^2 + ($3-$6)^2; print int(sqrt(d / 3)) }'; }
near() { [ "$(distance "$1" "$2")" -le "$3" ]; }
far() { [ "$(distance "$1" "$2")" -ge "$3" ]; }

check "guest script ran to the end" test "$status" = 0
check "devices exits 0" test "$(rc devices)" = 0
check "devices lists /dev/video0 (vivid)" has devices.out "^/dev/video0  vivid"
check "devices lists the formats with sizes and rates" has devices.out "YUYV 4:2:2 .*640x360 (40 fps)"
check "devices lists the test pattern" has devices.out "^test  stampcam test pattern"
check "devices --json names the card" has devices-json.out '"card" : "vivid"'
check "--controls shows brightness with its range and value" has controls.out "^brightness .*int 0 to 255, default 128: 128"
check "--set prints the new values" grep -q "^brightness .*: 140" "$back/set.out"
check "--set takes menu labels" has set.out "^test_pattern .*: 100% Colorbar"

for tag in $shoots; do
    IFS=: read -r name format size maxsize saved <<<"$tag"
    case=shoot-$name-$size
    w=${saved%x*} h=${saved#*x}
    check "$case: exit 0" test "$(rc "$case")" = 0
    photo=$(ls "$back/$case"/*.jpg 2>/dev/null | head -n 1)
    check "$case: one photo, named YYYYMMDD-HHMMSS-0001.jpg" sh -c "ls '$back/$case' | grep -Eq '^[0-9]{8}-[0-9]{6}-0001\.jpg$'"
    check "$case: stdout is the saved path" has "$case.out" "out/$case/.*-0001\.jpg$"
    ppm=$work/$case.ppm
    if [ -n "$photo" ] && djpeg -pnm "$photo" >"$ppm" 2>/dev/null; then
        check "$case: a valid JPEG of $saved (--max-size ${maxsize:-default})" test "$(head -c 20 "$ppm" | sed -n 2p)" = "$w $h"
        check "$case: EXIF has the capture settings" grep -aq "stampcam: /dev/video0 $format $size" "$photo"
        check "$case: EXIF has the camera" grep -aq "vivid" "$photo"
        # vivid's 75% colour bars: white on the left, blue in the 7th of 8 bars.
        white=$(patch "$ppm" "$w" "$h" 2 10 50 56)
        blue=$(patch "$ppm" "$w" "$h" 78 84 50 56)
        check "$case: colour bars come through ($white is 75% white, $blue is blue)" \
            sh -c "$(declare -f distance near); near '$white' '191 191 191' 20 && near '$blue' '0 0 191' 25"
        stamped=$(patch "$ppm" "$w" "$h" 3 12 88 93)
        clean=$(patch "$ppm" "$w" "$h" 78 84 88 93)
        check "$case: the stamp is drawn bottom left ($stamped vs $white)" \
            sh -c "$(declare -f distance far); far '$stamped' '$white' 40"
        check "$case: the rest is untouched ($clean vs $blue)" sh -c "$(declare -f distance near); near '$clean' '$blue' 12"
    else
        check "$case: a valid JPEG" false
    fi
done

check "no such device: exit 69" test "$(rc nosuch)" = 69
check "no such device: lists the cameras there are" has nosuch.err "/dev/video9: no such camera (cameras here: /dev/video0 (vivid))"
check "not a capture device: exit 69" test "$(rc notcapture)" = 69
check "not a capture device: says so" has notcapture.err "/dev/media0: not a video capture device"
check "permission denied: exit 69" test "$(rc permission)" = 69
check "permission denied: says to join the video group" has permission.err "permission denied; add yourself to the 'video' group"
check "busy: exit 69" test "$(rc busy)" = 69
check "busy: says another program has it" has busy.err "/dev/video0: the camera is busy: another program is using it"
check "SIGTERM mid-capture: killed by the signal (143)" test "$(rc busy-first)" = 143
# (The folder's .stampcam marker says it holds stamped photos; no photo, temp file or claim may be there.)
check "SIGTERM mid-capture: nothing left in the folder but its marker" \
    test -z "$(ls -A "$back/busy-first" 2>/dev/null | grep -vx '.stampcam')"
check "disconnect mid-stream: exit 69" test "$(rc disconnect)" = 69
check "disconnect mid-stream: says it was disconnected" has disconnect.err "/dev/video0: the camera was disconnected during capture"
check "disconnect mid-stream: no photo" test -z "$(ls -A "$back/disconnect" 2>/dev/null | grep -vx '.stampcam')"
check "one fatal streaming error: restarted, exit 0" test "$(rc fatal-once)" = 0
check "one fatal streaming error: a note says the stream was restarted" has fatal-once.err "streaming error; the stream was restarted"
check "one fatal streaming error: the photo is saved" sh -c "ls '$back/fatal-once'/*.jpg"
check "repeated fatal streaming errors: exit 74" test "$(rc fatal-again)" = 74
check "repeated fatal streaming errors: says so" has fatal-again.err "stopped streaming with an I/O error, again after a restart"
check "no frame: exit 69" test "$(rc timeout)" = 69
check "no frame: says no frame came within the timeout" has timeout.err "no frame from the camera within 5 s"

if [ "$failed" != 0 ]; then
    echo "vivid: outputs are in $back (console log: $payload/vm-console.log)"
fi
echo "vivid: $passed passed, $failed failed"
[ "$failed" = 0 ]
