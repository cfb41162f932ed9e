#!/usr/bin/env bash
# run.sh STAMPCAM — `make test-fs`: stampcam saving onto the file systems of SD cards and USB sticks,
# black-box with the release binary. FAT through FUSE (`fusefat`) and exFAT through FUSE (`exfat-fuse`
# on a loop device), images made by mkfs.vfat and mkfs.exfat: neither has hard links, and FUSE refuses
# renameat2's RENAME_NOREPLACE, so every name is taken the last way stampcam knows (`NoReplace`).
# On each: apply (twice: the second numbers its names, never over the first), --skip-existing, the
# catalog on the card (rollback journal, sound), shoot --yes --keep-original with the test pattern,
# restamp from the kept original, report and export (CSV, KMZ) onto the card; then a full card (the
# batch stops, what is saved decodes, nothing partial or left over, and --skip-existing finishes once
# there is room), a card mounted read-only, and a card pulled out mid-batch (a lazy unmount: the next
# photo finds the folder gone) that --skip-existing finishes once it is back. Every photo is read by
# djpeg and exiftool. The kernel's own vfat and exfat are tested in the VM (Tests/vivid/fs.sh).
# Skipped, saying why, without root or /dev/fuse. Prints `fs: N passed, M failed`; exits 0 only when
# all passed.
set -u
stampcam=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/checks.sh"

skip() { echo "fs: skipped: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "mounting FUSE file systems and loop devices needs root"
[ -c /dev/fuse ] || skip "there is no /dev/fuse here"
for tool in fusefat mount.exfat-fuse mkfs.exfat mkfs.vfat losetup exiftool djpeg python3; do
    command -v "$tool" > /dev/null || { echo "fs: '$tool' is missing (Debian: fusefat exfat-fuse exfatprogs dosfstools mount libimage-exiftool-perl libjpeg-turbo-progs python3)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/stampcam-fs.XXXXXX") || exit 2
loops=()
cleanup() {
    for mounted in $(awk -v w="$work" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$mounted"; done
    for loop in "${loops[@]}"; do losetup -d "$loop" 2> /dev/null; done
    rm -rf -- "$work"
}
trap cleanup EXIT
isolate "$work"   # never the user's own configuration, catalog or signing identity

# make_card KIND IMAGE MEGABYTES
make_card() {
    rm -f "$2"
    truncate -s "$3M" "$2"
    case $1 in
        fat) mkfs.vfat -F 32 "$2" > /dev/null ;;
        exfat) mkfs.exfat "$2" > /dev/null ;;
    esac
}
# mount_card KIND IMAGE DIR [ro]: FUSE mounts, read-write unless ro.
mount_card() {
    mkdir -p "$3"
    case $1 in
        fat) fusefat -o "$([ "${4:-}" = ro ] && echo ro || echo rw+)" "$2" "$3" ;;
        exfat)
            loop=$(losetup -f --show "$2") || return 1
            loops+=("$loop")
            if [ "${4:-}" = ro ]; then mount.exfat-fuse -o ro "$loop" "$3"; else mount.exfat-fuse "$loop" "$3"; fi ;;
    esac > /dev/null 2>&1
    wait_until 20 mountpoint -q "$3"
}
# unmount_card DIR: flushed and gone (FUSE daemons write back when unmounted).
unmount_card() {
    umount "$1" 2> /dev/null || umount -l "$1"
    wait_until 20 sh -c "! mountpoint -q '$1'"
    for loop in "${loops[@]}"; do losetup -d "$loop" 2> /dev/null; done
    loops=()
}
# sound DIR: every JPEG below DIR decodes whole (djpeg) and has its metadata (exiftool), no file is
# empty, and nothing of stampcam's is left but the folder marker.
sound() {
    local bad=0
    while IFS= read -r -d '' photo; do
        djpeg "$photo" > /dev/null 2>&1 || { echo "  does not decode: $photo" >&2; bad=1; }
        exiftool -s3 -Software "$photo" 2> /dev/null | grep -q stampcam || { echo "  no metadata: $photo" >&2; bad=1; }
    done < <(find "$1" -name '*.jpg' -print0)
    if find "$1" -empty -type f | grep -q .; then echo "  empty files: $(find "$1" -empty -type f)" >&2; bad=1; fi
    if find "$1" -name '.stampcam-*' | grep -q .; then echo "  leftovers: $(find "$1" -name '.stampcam-*')" >&2; bad=1; fi
    return $bad
}
count() { find "$1" -name "${2:-*.jpg}" ! -name '*.original.jpg' | wc -l; }

# Inputs: test cards (already stamped: --stamp-again) on this machine's disk.
"$stampcam" test-card -o "$work/card0" > /dev/null 2>&1
mkdir -p "$work/in" "$work/many"
for i in $(seq -w 1 6); do cp "$work/card0/test-card.jpg" "$work/in/photo-$i.jpg"; done
for i in $(seq -w 1 40); do cp "$work/card0/test-card.jpg" "$work/many/photo-$i.jpg"; done
mkdir -p "$work/names" && cp "$work/card0/test-card.jpg" "$work/names/a:b.jpg"
check "test cards made as inputs" test -s "$work/in/photo-1.jpg"

for kind in fat exfat; do
    echo "== $kind (FUSE)"
    image=$work/$kind.img card=$work/$kind
    make_card $kind "$image" 64
    if ! mount_card $kind "$image" "$card"; then
        echo "fs: skipped $kind: it cannot be mounted here (FUSE refused)"
        continue
    fi
    catalog=$card/catalog.sqlite
    if [ $kind = fat ]; then
        # fusefat ("experimental code", in its own words) loses what is written past a file's end
        # and then its own state: SQLite's files on it are damaged whatever the journal. The
        # catalog on FAT is tested on the kernel's vfat in the VM (Tests/vivid/fs.sh).
        echo "fs: note: the catalog goes beside the FUSE FAT card, not on it (fusefat damages SQLite's files)"
        catalog=$work/fat-catalog.sqlite
    fi
    "$stampcam" apply "$work/in" -o "$card/apply" --stamp-again --catalog "$catalog" --gps 48.8584,2.2945 -q > /dev/null 2> "$work/err"
    code=$?
    check "$kind: apply onto the card exits 0 ($(head -c 300 "$work/err"))" test $code = 0
    check "$kind: 6 stamped photos" test "$(count "$card/apply")" = 6
    check "$kind: no 'permission denied', no error" sh -c "! grep -qi 'denied\|cannot' '$work/err'"
    "$stampcam" apply "$work/in" -o "$card/apply" --stamp-again --catalog "$catalog" -q > /dev/null 2>&1
    numbered=$(find "$card/apply" -name 'photo-?-1.jpg' | wc -l)
    check "$kind: a second apply numbers its names (-1), never over the first ($numbered)" \
        test "$numbered" = 6 -a "$(count "$card/apply")" = 12
    "$stampcam" apply "$work/in" -o "$card/apply" --stamp-again --catalog "$catalog" --skip-existing > /dev/null 2> "$work/err"
    check "$kind: --skip-existing skips all 6" grep -q "0 done, 6 skipped, 0 failed" "$work/err"
    [ $kind = fat ] || check "$kind: the catalog on the card keeps a rollback journal, not WAL" \
        python3 -c "import sqlite3, sys; sys.exit(sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode').fetchone()[0] != 'delete')" "$catalog"
    check "$kind: the catalog is sound and holds 12 photos" \
        python3 -c "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); sys.exit(c.execute('PRAGMA integrity_check').fetchone()[0] != 'ok' or c.execute('SELECT count(*) FROM photos').fetchone()[0] != 12)" "$catalog"
    [ $kind = fat ] || check "$kind: no WAL files beside it" sh -c "! ls '$catalog'-* 2> /dev/null | grep -q ."

    "$stampcam" shoot --yes --keep-original --device test -o "$card/shots" --catalog "$catalog" > "$work/out" 2> "$work/err"
    code=$?
    check "$kind: shoot --yes --keep-original exits 0 ($(head -c 300 "$work/err"))" test $code = 0
    shot=$(find "$card/shots" -name '*.jpg' ! -name '*.original.jpg' | head -n 1)
    check "$kind: the photo, its original and its sidecar" sh -c "test -s '$shot' && ls '$card/shots/'*.original.jpg && ls '$card/shots/'*.json"
    "$stampcam" restamp "$shot" -t minimal -o "$card/restamped" --catalog "$catalog" > /dev/null 2> "$work/err"
    check "$kind: restamp from the kept original onto the card ($(head -c 300 "$work/err"))" test "$(count "$card/restamped")" = 1

    "$stampcam" report --catalog "$catalog" -o "$card/report.pdf" > /dev/null 2> "$work/err"
    check "$kind: report onto the card ($(head -c 300 "$work/err"))" \
        python3 -c "import sys; b = open(sys.argv[1], 'rb').read(); sys.exit(not (b.startswith(b'%PDF') and b.rstrip().endswith(b'%%EOF')))" "$card/report.pdf"
    "$stampcam" export --csv --catalog "$catalog" -o "$card/photos.csv" > /dev/null 2>&1
    check "$kind: export --csv onto the card (14 rows)" \
        python3 -c "import csv, sys; sys.exit(len(list(csv.DictReader(open(sys.argv[1], encoding='utf-8-sig')))) != 14)" "$card/photos.csv"
    "$stampcam" export --kmz --catalog "$catalog" -o "$card/photos.kmz" > /dev/null 2> "$work/err"
    # fusefat refuses the read-write opens libzip makes (EPERM): the KMZ it leaves is no zip.
    [ $kind = fat ] || check "$kind: export --kmz onto the card ($(head -c 300 "$work/err"))" \
        python3 -c "import zipfile, sys; sys.exit(zipfile.ZipFile(sys.argv[1]).testzip() is not None)" "$card/photos.kmz"
    "$stampcam" export --csv --catalog "$catalog" -o "$card/photos.csv" > /dev/null 2>&1
    check "$kind: a second export is numbered, never over the first" test -s "$card/photos-1.csv"
    "$stampcam" apply "$work/names" -o "$card/names" --stamp-again --no-catalog > /dev/null 2> "$work/err"
    code=$?
    check "$kind: a name FAT cannot have: exit 73, said in words ($(head -c 300 "$work/err"))" \
        sh -c "test $code = 73 && grep -q 'a:b.jpg: cannot create: FAT and exFAT (SD cards, USB sticks) allow no' '$work/err'"
    check "$kind: every photo on the card decodes, nothing partial or left over" sound "$card"

    # Pulled out mid-batch: the folder goes away under the batch (a lazy unmount, as when a card
    # reader's card is taken out and the mount is dropped).
    "$stampcam" apply "$work/many" -o "$card/many" --stamp-again --no-catalog -j 1 > /dev/null 2> "$work/err" &
    batch=$!
    wait_until 120 sh -c "ls '$card/many/'*.jpg"
    umount -l "$card"
    wait "$batch"
    code=$?
    check "$kind: pulled mid-batch: exit 74" test "$code" = 74
    check "$kind: pulled mid-batch: one line says the folder is gone and to go on with --skip-existing" \
        sh -c "grep -q 'many: the folder is gone' '$work/err' && grep -q 'interrupted: .*--skip-existing' '$work/err'"
    check "$kind: pulled mid-batch: no 'permission denied'" sh -c "! grep -qi 'denied' '$work/err'"
    for loop in "${loops[@]}"; do losetup -d "$loop" 2> /dev/null; done
    loops=()
    # The FUSE daemon writes back and ends once the batch has let go of the card.
    wait_until 60 sh -c "! pgrep -f '^(fusefat|mount.exfat-fuse) .*$card\$'"
    mount_card $kind "$image" "$card"
    before=$(count "$card/many")
    "$stampcam" apply "$work/many" -o "$card/many" --stamp-again --no-catalog -j 1 --skip-existing -q > /dev/null 2> "$work/err"
    code=$?
    check "$kind: back in: --skip-existing finishes the batch ($before were saved before; $(head -c 300 "$work/err"))" test $code = 0
    check "$kind: back in: all 40 once, none numbered" test "$(ls "$card/many" | grep -c '^photo-[0-9]*\.jpg$')" = 40 -a "$(count "$card/many")" = 40
    check "$kind: back in: every photo decodes, no leftovers of the batch pulled out" sound "$card/many"
    unmount_card "$card"

    # Read-only (a write-protected card).
    mount_card $kind "$image" "$card" ro
    "$stampcam" apply "$work/in/photo-1.jpg" -o "$card/ro" --stamp-again --no-catalog > /dev/null 2> "$work/err"
    code=$?
    check "$kind: read-only card: exit 73 in one line saying so ($(cat "$work/err"))" \
        sh -c "test $code = 73 && test \"\$(grep -c . '$work/err')\" = 1 && grep -q 'read-only file system' '$work/err'"
    unmount_card "$card"

    # Full: a card with about 1.5 MB left; the batch stops, and finishes once a file is removed.
    make_card $kind "$image" 40
    mount_card $kind "$image" "$card"
    # Filled up a megabyte at a time (fusefat tells no free space, and frees nothing a truncate
    # gives back), then the last two given back: room for some of the 40 photos, not all.
    i=1
    while head -c 1M /dev/zero > "$card/filler-$i" 2> /dev/null && [ $i -lt 64 ]; do i=$((i + 1)); done
    rm -f "$card/filler-$i" "$card/filler-$((i - 1))"
    "$stampcam" apply "$work/many" -o "$card/full" --stamp-again --no-catalog -j 2 --quality 100 > /dev/null 2> "$work/err"
    code=$?
    saved=$(count "$card/full")
    check "$kind: full card: exit 74 with some photos saved ($saved)" test "$code" = 74 -a "$saved" -gt 0
    # fusefat answers EPERM where it means ENOSPC.
    check "$kind: full card: the failures say the disk is full ($(grep -v 'photo-' "$work/err" | head -c 300))" \
        grep -q "no space left on the device$([ $kind = fat ] && echo '\|operation not permitted')" "$work/err"
    check "$kind: full card: what was saved decodes, nothing partial or left over" sound "$card/full"
    rm -f "$card"/filler-*
    "$stampcam" apply "$work/many" -o "$card/full" --stamp-again --no-catalog -j 2 --quality 100 --skip-existing -q > /dev/null 2> "$work/err"
    code=$?
    check "$kind: room made: --skip-existing finishes the batch ($(head -c 300 "$work/err"))" test $code = 0
    check "$kind: room made: all 40 once" test "$(ls "$card/full" | grep -c '^photo-[0-9]*\.jpg$')" = 40 -a "$(count "$card/full")" = 40
    check "$kind: room made: every one decodes, nothing left over" sound "$card/full"
    unmount_card "$card"
done

echo "fs: $passed passed, $failed failed"
[ "$failed" = 0 ]
