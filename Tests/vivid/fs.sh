#!/usr/bin/env bash
# fs.sh [CACHE_DIR] [STAMPCAM_BINARY] — stampcam saving onto the kernel's own vfat and exfat, in the
# VM vm.sh boots (the host may have no loadable modules; the guest loads loop, vfat and exfat).
# Images made on the host by mkfs.vfat and mkfs.exfat are loop-mounted in the guest; on each: apply,
# shoot --keep-original from vivid's camera, restamp, report and export onto the card; a card
# remounted read-only; a full card (the batch stops; --skip-existing finishes once there is room);
# and the card pulled out mid-batch (a lazy unmount under a running batch), then mounted again and
# the batch finished with --skip-existing. In the guest every photo must verify (its C2PA hash
# binding covers every byte: a partial file cannot pass) and nothing of stampcam's may be left
# over; a sample of each command's files comes back for djpeg and exiftool on the host. Prints
# `vivid-fs: N passed, N failed`; exits 0 only when all passed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cache=${1:-$root/.build/vivid}
binary=${2:-$root/.build/static/release/stampcam}
[ -x "$binary" ] || { echo "fs.sh: no stampcam binary at $binary" >&2; exit 2; }
"$here/vm.sh" ensure-packages dosfstools exfatprogs libjpeg-turbo-progs libimage-exiftool-perl

mkdir -p "$cache"
work=$(cd "$cache" && pwd)/fs
payload=$work/payload
rm -rf "$work" && mkdir -p "$payload/bin" "$payload/share"
cp "$binary" "$payload/bin/stampcam"
cp -R "$root/fonts" "$root/templates" "$payload/share/"
truncate -s 48M "$payload/vfat.img" "$payload/exfat.img"
mkfs.vfat -F 32 "$payload/vfat.img" > /dev/null
mkfs.exfat "$payload/exfat.img" > /dev/null

{ cat "$root/Tests/lib/checks.sh"; cat <<'GUEST'
export STAMPCAM_DATA=/payload/share
isolate /tmp/stampcam
mkdir -p out /tmp/in /tmp/many
stampcam test-card -o /tmp/card0 > /dev/null 2>&1
for i in 1 2 3 4; do cp /tmp/card0/test-card.jpg /tmp/in/photo-$i.jpg; done
for i in 01 02 03 04 05 06 07 08 09 10 11 12; do cp /tmp/card0/test-card.jpg /tmp/many/photo-$i.jpg; done
mkdir -p /tmp/names && cp /tmp/card0/test-card.jpg /tmp/names/a:b.jpg
# intact DIR: every stamped photo below DIR verifies (C2PA: untrusted is fine, changed is not), every
# kept original is what its sidecar says, no file is empty, and nothing of stampcam's is left but the
# folder marker.
# What is wrong goes to out/intact.log, which comes back to the host.
intact() {
    # A kept original is the camera's own bytes (unsigned): its SHA-256 must be the one its sidecar gives.
    for original in $(find "$1" -name '*.original.jpg'); do
        sidecar=${original%.original.jpg}.json
        [ -f "$sidecar" ] || continue
        grep -q "$(sha256sum "$original" | cut -d ' ' -f 1)" "$sidecar" || { echo "not as kept: $original" >> out/intact.log; return 1; }
    done
    for photo in $(find "$1" -name '*.jpg' ! -name '*.original.jpg'); do
        stampcam verify "$photo" > /dev/null 2>&1
        case $? in 0|10) ;; *) echo "does not verify: $photo" >> out/intact.log; return 1 ;; esac
    done
    [ -z "$(find "$1" -type f -size 0)" ] || { echo "empty: $(find "$1" -type f -size 0)" >> out/intact.log; return 1; }
    [ -z "$(find "$1" -name '.stampcam-*')" ] || { echo "left over: $(find "$1" -name '.stampcam-*')" >> out/intact.log; return 1; }
}
photos() { find "$1" -name '*.jpg' ! -name '*.original.jpg' | wc -l; }
apply() { stampcam apply --stamp-again -j 1 --max-size 640 "$@"; }

for kind in vfat exfat; do
    echo "== $kind (the kernel's)"
    card=/mnt/$kind
    mkdir -p $card out/$kind
    # UTF-8 names, as desktops mount cards (the kernel's default for vfat is ASCII).
    options=loop$([ $kind = vfat ] && echo ,iocharset=utf8)
    mount -t $kind -o $options /payload/$kind.img $card || { failed=$((failed + 1)); echo "FAIL - $kind: mount"; continue; }
    catalog=$card/catalog.sqlite
    apply /tmp/in -o $card/apply --catalog $catalog -q > /dev/null 2> out/$kind/apply.err
    check "$kind: apply onto the card exits 0" test $? = 0
    check "$kind: 4 photos" test "$(photos $card/apply)" = 4
    apply /tmp/in -o $card/apply --catalog $catalog -q > /dev/null 2>&1
    check "$kind: a second apply numbers its names, never over the first" test "$(ls $card/apply | grep -c 'photo-[0-9]-1\.jpg$')" = 4
    stampcam shoot --yes --keep-original --device /dev/video0 -o $card/shots --catalog $catalog > /dev/null 2> out/$kind/shoot.err
    check "$kind: shoot --keep-original from vivid exits 0" test $? = 0
    shot=$(find $card/shots -name '*.jpg' ! -name '*.original.jpg' | head -n 1)
    check "$kind: the photo, its original and its sidecar" sh -c "test -s '$shot' && ls $card/shots/*.original.jpg && ls $card/shots/*.json"
    stampcam restamp "$shot" -t minimal -o $card/restamped --catalog $catalog > /dev/null 2> out/$kind/restamp.err
    check "$kind: restamp from the kept original" test "$(photos $card/restamped)" = 1
    stampcam report --catalog $catalog -o $card/report.pdf > /dev/null 2> out/$kind/report.err
    check "$kind: report onto the card" test -s $card/report.pdf
    stampcam export --csv --catalog $catalog -o $card/photos.csv > /dev/null 2> out/$kind/export.err
    check "$kind: export --csv onto the card (10 photos and a header)" test "$(wc -l < $card/photos.csv)" = 11
    stampcam export --kmz --catalog $catalog -o $card/photos.kmz > /dev/null 2>> out/$kind/export.err
    check "$kind: export --kmz onto the card" test -s $card/photos.kmz
    check "$kind: no WAL beside the catalog on the card" sh -c "! ls $catalog-wal $catalog-shm"
    apply /tmp/names -o $card/names --no-catalog > /dev/null 2> out/$kind/names.err
    code=$?
    check "$kind: a name FAT cannot have: exit 73, said in words" \
        sh -c "test $code = 73 && grep -q 'a:b.jpg: cannot create: FAT and exFAT (SD cards, USB sticks) allow no' out/$kind/names.err"
    check "$kind: every photo verifies, nothing partial or left over" intact $card
    cp "$shot" out/$kind/shot.jpg; cp $card/shots/*.original.jpg out/$kind/original.jpg
    cp $(find $card/restamped -name '*.jpg' ! -name '*.original.jpg') out/$kind/restamped.jpg
    cp $card/apply/photo-1-1.jpg out/$kind/applied.jpg
    cp $card/report.pdf $card/photos.kmz $card/photos.csv $catalog out/$kind/

    mount -o remount,ro $card
    apply /tmp/in/photo-1.jpg -o $card/ro --no-catalog > /dev/null 2> out/$kind/ro.err
    code=$?
    check "$kind: read-only: exit 73 in one line saying so" sh -c "test $code = 73 && test \$(grep -c . out/$kind/ro.err) = 1 && grep -q 'read-only file system' out/$kind/ro.err"
    mount -o remount,rw $card

    # Pulled out mid-batch: the mount goes away under a running batch.
    apply /tmp/many -o $card/many --no-catalog > /dev/null 2> out/$kind/pulled.err &
    batch=$!
    wait_until 300 sh -c "ls $card/many/*.jpg"
    umount -l $card
    wait $batch
    code=$?
    check "$kind: pulled mid-batch: exit 74, the folder named gone" sh -c "test $code = 74 && grep -q 'many: the folder is gone' out/$kind/pulled.err"
    wait_until 60 sh -c "! grep -q ' $card ' /proc/mounts"
    mount -t $kind -o $options /payload/$kind.img $card
    apply /tmp/many -o $card/many --no-catalog --skip-existing -q > /dev/null 2> out/$kind/resumed.err
    check "$kind: back in: --skip-existing finishes the batch, each photo once" sh -c "test $? = 0 && test \$(ls $card/many | grep -c '\.jpg$') = 12"
    check "$kind: back in: every photo verifies, nothing left over" intact $card/many

    # Full: what is left after a filler is half a megabyte, less than the photos need at quality 100.
    free=$(df -k $card | awk 'NR == 2 { print $4 }')
    dd if=/dev/zero of=$card/filler bs=1024 count=$((free - 512)) 2> /dev/null
    stampcam apply --stamp-again -j 1 --quality 100 /tmp/many -o $card/full --no-catalog > /dev/null 2> out/$kind/full.err
    code=$?
    check "$kind: full: exit 74, saying the disk is full" sh -c "test $code = 74 && grep -q 'no space left on the device' out/$kind/full.err"
    check "$kind: full: what was saved verifies, nothing partial or left over" intact $card/full
    rm $card/filler
    stampcam apply --stamp-again -j 1 --quality 100 /tmp/many -o $card/full --no-catalog --skip-existing -q > /dev/null 2> out/$kind/room.err
    check "$kind: room made: --skip-existing finishes the batch, each photo once" sh -c "test $? = 0 && test \$(ls $card/full | grep -c '\.jpg$') = 12"
    check "$kind: room made: every photo verifies" intact $card/full
    umount $card
done
# A card pulled out for real: a SCSI disk (scsi_debug, as a USB card reader's) deleted under a
# running batch, the kernel's vfat on it; then found again by a rescan (scsi_debug keeps its data).
disk=$(ls /sys/block | grep '^sd' | head -n 1)
if [ -z "$disk" ]; then
    echo "note: no scsi_debug disk, so no card pulled out for real"
else
    echo "== vfat on a SCSI disk that is deleted mid-batch"
    card=/mnt/sd
    mkdir -p $card out/sd
    mkdosfs /dev/$disk > /dev/null 2>&1 && mount -t vfat -o iocharset=utf8 /dev/$disk $card
    check "sd: mounted" grep -q " $card " /proc/mounts
    apply /tmp/many -o $card/many --no-catalog > /dev/null 2> out/sd/pulled.err &
    batch=$!
    wait_until 300 sh -c "ls $card/many/*.jpg"
    echo 1 > /sys/block/$disk/device/delete
    wait $batch
    code=$?
    check "sd: deleted mid-batch: exit 74, the card said to be removed" sh -c "test $code = 74 && grep -q 'removed' out/sd/pulled.err"
    umount -l $card
    for scan in /sys/class/scsi_host/host*/scan; do echo '- - -' > $scan; done
    wait_until 60 sh -c "ls /sys/block | grep -q '^sd'"
    disk=$(ls /sys/block | grep '^sd' | head -n 1)
    wait_until 30 test -b /dev/$disk
    mount -t vfat -o iocharset=utf8 /dev/$disk $card
    apply /tmp/many -o $card/many --no-catalog --skip-existing -q > /dev/null 2> out/sd/resumed.err
    check "sd: back in: --skip-existing finishes the batch, each photo once" sh -c "test $? = 0 && test \$(ls $card/many | grep -c '\.jpg$') = 12"
    check "sd: back in: every photo verifies, nothing left over" intact $card/many
    umount $card
fi
echo "guest: $passed passed, $failed failed"
[ "$failed" = 0 ]
GUEST
} > "$work/guest.sh"

start=$SECONDS
set +e
VIVID_MODULES="loop fat vfat exfat nls_cp437 nls_iso8859_1 nls_utf8 crc64_rocksoft_generic sd_mod scsi_debug:dev_size_mb=48" \
VIVID_HOST_PATHS="/etc/fonts /usr/share/fonts/truetype/dejavu /usr/share/fonts/truetype/wqy" \
    "$here/vm.sh" run "$cache" "$payload" "$work/guest.sh" 900
status=$?
set -e
echo "vivid-fs: VM run took $((SECONDS - start)) s (vm.sh exit $status)"

. "$root/Tests/lib/checks.sh"
back=$payload/out-from-vm
check "the guest's checks all passed (vm.sh exit $status)" test "$status" = 0
for kind in vfat exfat; do
    for photo in shot original restamped applied; do
        check "$kind: $photo.jpg decodes whole (djpeg)" djpeg -outfile /dev/null "$back/$kind/$photo.jpg"
    done
    for photo in shot restamped applied; do
        check "$kind: $photo.jpg carries its stamp record (exiftool)" sh -c "exiftool -s3 -Software '$back/$kind/$photo.jpg' | grep -q stampcam"
    done
    check "$kind: the catalog's journal is the rollback one, and it is sound" python3 - "$back/$kind/catalog.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
sys.exit(db.execute("PRAGMA journal_mode").fetchone()[0] != "delete" or db.execute("PRAGMA integrity_check").fetchone()[0] != "ok")
PY
done
[ "$status" = 0 ] || echo "vivid-fs: the guest's files are in $back (console log: $payload/vm-console.log)"
echo "vivid-fs: $passed passed, $failed failed"
[ "$failed" = 0 ]
