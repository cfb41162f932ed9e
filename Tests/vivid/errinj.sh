#!/usr/bin/env bash
# errinj.sh [CACHE_DIR] — experiment, not a pass/fail test: shows what vivid's
# error-injection controls do to a program that is streaming. probe.c (a plain
# non-blocking mmap + poll() capture loop) streams /dev/video0 while a second
# command sets a control; the probe prints what poll/DQBUF/QBUF/STREAMOFF return.
# The findings are written up in README.md.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-$here/../../.build/vivid}

"$here/vm.sh" ensure-packages v4l-utils gcc libc6-dev linux-libc-dev
mkdir -p "$cache"
work=$(cd "$cache" && pwd)/errinj
rm -rf "$work" && mkdir -p "$work/payload/bin"
cp "$(command -v v4l2-ctl)" "$work/payload/bin/"
cc -O2 -Wall -o "$work/payload/bin/probe" "$here/probe.c"

cat >"$work/guest.sh" <<'EOF'
D=/dev/video0
for ctrl in disconnect inject_fatal_streaming_error inject_v4l2_buf_flag_error \
            inject_vidioc_qbuf_error inject_vidioc_streamon_error inject_vidioc_reqbufs_error; do
    echo "=== $ctrl: set while the probe streams"
    probe $D 5 & pid=$!
    sleep 2
    v4l2-ctl -d $D --set-ctrl=$ctrl=1 && echo "(v4l2-ctl --set-ctrl=$ctrl=1 done)"
    wait $pid; echo "probe exit status $?"
    echo "--- a new probe afterwards"
    probe $D 1; echo "probe exit status $?"
done

echo "=== disconnect while another fd stays open"
exec 3<$D
v4l2-ctl -d $D --set-ctrl=disconnect=1
v4l2-ctl -d $D --info >/dev/null; echo "open while disconnected: v4l2-ctl exit status $?"
exec 3<&-
v4l2-ctl -d $D --info >/dev/null; echo "open after the last fd closed: v4l2-ctl exit status $?"

echo "=== numeric control id with v4l2-ctl (0x00f0f046 = inject_fatal_streaming_error)"
v4l2-ctl -d $D --stream-mmap --stream-count=0 --stream-to=/dev/null >/tmp/stream.log 2>&1 & pid=$!
sleep 2
v4l2-ctl -d $D --set-ctrl=0x00f0f046=1; echo "set-ctrl by number: exit status $?"
wait $pid; echo "streaming v4l2-ctl exit status $?; its last words:"
tail -c 200 /tmp/stream.log | tr '<' '\n' | grep -v '^ *$' | tail -n 2

echo "=== kernel log"
dmesg | grep vivid
EOF

"$here/vm.sh" run "$cache" "$work/payload" "$work/guest.sh" 240
