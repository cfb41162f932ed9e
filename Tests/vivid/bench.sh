#!/usr/bin/env bash
# bench.sh [CACHE_DIR] [STAMPCAM_BINARY] [RUNS] — capture latency on vivid in the VM: from command
# start to a saved stamped JPEG, `stampcam shoot --yes` against fswebcam (its banner is its stamp),
# both at 640x360 YUYV with the same number of settle frames, in a VM with one virtual processor
# and in one with two (BENCH_SMP="1 2"). Prints each tool's mean and the ratio stampcam / fswebcam
# (below 1 means stampcam is faster) for each.
#
# The ratio the target is judged on is measured with the guest's address-space randomisation off;
# the runs with it on follow, for comparison (BENCH_ASLR, default "0 2": the randomize_va_space values). qemu's TCG translates guest code into
# host code and keeps the translations by virtual address as well as physical page: with each
# process's libraries at new addresses, every run translates all the code it runs again, a cost
# a real processor does not have and which grows with the code a program touches rather than the
# work it does (a cold stampcam: Swift's runtime, Pango, SQLite; fswebcam: libgd). With it off,
# both tools are still emulated instruction by instruction; only that retranslation goes.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${1:-$root/.build/vivid}
binary=${2:-$root/.build/static/release/stampcam}
runs=${3:-8}
skip=${SKIP:-10}
[ -x "$binary" ] || { echo "bench.sh: no stampcam binary at $binary" >&2; exit 2; }

# fswebcam comes from Debian and runs in the VM with the host's libraries (vm.sh copies what ldd names).
"$here/vm.sh" ensure-packages fswebcam

mkdir -p "$cache"
work=$(cd "$cache" && pwd)/bench
payload=$work/payload
rm -rf "$work" && mkdir -p "$payload/bin" "$payload/share"
cp "$binary" "$payload/bin/stampcam"
cp "$(command -v fswebcam)" "$payload/bin/"
cp -R "$root/fonts" "$root/templates" "$payload/share/"

# guest_script ASLR: the runs, with /proc/sys/kernel/randomize_va_space set to ASLR.
guest_script() {
cat >"$work/guest.sh" <<GUEST
echo $1 > /proc/sys/kernel/randomize_va_space
export STAMPCAM_DATA=/payload/share
D=/dev/video0
mkdir -p out /tmp/s /tmp/f
now() { cut -d' ' -f1 /proc/uptime; }
# One untimed run of each first, so neither pays for first-time page faults of its libraries.
stampcam shoot --device \$D --yes --format YUYV --resolution 640x360 --skip $skip -o /tmp/s >/dev/null 2>&1
fswebcam -q -d \$D -p YUYV -r 640x360 --skip $skip /tmp/f/warm.jpg >/dev/null 2>&1
for i in \$(seq $runs); do
    t0=\$(now); stampcam shoot --device \$D --yes --format YUYV --resolution 640x360 --skip $skip -o /tmp/s >/dev/null 2>out/stampcam.err
    t1=\$(now); fswebcam -q -d \$D -p YUYV -r 640x360 --skip $skip /tmp/f/\$i.jpg >/dev/null 2>out/fswebcam.err
    t2=\$(now); echo "run \$i stampcam \$t0 \$t1 fswebcam \$t1 \$t2"
done
ls /tmp/s | wc -l >out/stampcam.count; ls /tmp/f | wc -l >out/fswebcam.count
GUEST
}

# Once on one virtual processor and once on two: stampcam sets its fonts up and gets writing ready
# on threads of their own while the camera settles, which a second core lets run beside the camera
# (as on any phone or laptop); on one, all the work takes turns and only less of it helps.
for smp in ${BENCH_SMP:-1 2}; do
  for aslr in ${BENCH_ASLR:-0 2}; do
    guest_script "$aslr"
    if [ "$aslr" = 0 ]; then label="ASLR off"; verdict=target; else label="ASLR on"; verdict=compare; fi
    VIVID_SMP=$smp VIVID_HOST_PATHS="/etc/fonts /usr/share/fonts/truetype/dejavu /usr/share/fonts/truetype/wqy" \
        "$here/vm.sh" run "$cache" "$payload" "$work/guest.sh" 300 | tee "$work/runs.txt"
    echo "bench: $runs runs each, 640x360 YUYV, $skip settle frames, $smp vCPU, $label; photos saved: stampcam $(cat "$payload/out-from-vm/stampcam.count") (incl. warm-up), fswebcam $(cat "$payload/out-from-vm/fswebcam.count")"
    # A run that saved no photo is not a fast run: the bench fails rather than print its time.
    for tool in stampcam fswebcam; do
        saved=$(cat "$payload/out-from-vm/$tool.count")
        if [ "$saved" -lt $((runs + 1)) ]; then
            echo "bench: $tool saved $saved of $((runs + 1)) photos:" >&2
            sed 's/^/  /' "$payload/out-from-vm/$tool.err" >&2
            exit 1
        fi
    done
    awk -v smp="$smp" -v label="$label" -v verdict="$verdict" '/^run / { s += $5 - $4; f += $8 - $7; n++ }
         END { if (n == 0 || f == 0) { print "bench: no timings"; exit 1 }
               judged = verdict == "target" ? sprintf("target <= 1.0: %s", s / f <= 1.0 ? "met" : "not met") : "for comparison"
               printf "bench: %d vCPU, %s: stampcam %.2f s, fswebcam %.2f s per photo; ratio stampcam/fswebcam %.2f (%s)\n",
                      smp, label, s / n, f / n, s / f, judged }' "$work/runs.txt" | tee -a "$work/summary.txt"
  done
done
echo "bench: summary"; sed 's/^bench: /  /' "$work/summary.txt"
