#!/usr/bin/env bash
# make bench's full-size section, and runnable on its own: Tests/bench/fullsize.sh (STAMPCAM= a binary).
# Stamping at full size (`--max-size 0`) over ../shared/corpus, 2 workers each, median of RUNS rounds:
# stampcam in place (the default) against stampcam --reencode, `jpegtran -copy all` (the floor for
# rewriting a JPEG's coefficients) and `djpeg | cjpeg -quality 90 -optimize` (a plain full re-encode).
# Then Tests/bench/fullsize.py: what stamping in place kept (rows byte-identical, PSNR, file size).
set -euo pipefail
cd "$(dirname "$0")/../.."
STAMPCAM=${STAMPCAM:-$PWD/.build/static/release/stampcam}
CORPUS=${CORPUS:-../shared/corpus}
WORK=$PWD/.build/bench/fullsize
RUNS=${RUNS:-5}
export STAMPCAM XDG_DATA_HOME=$WORK/data

Tests/lib/ensure-packages.sh libjpeg-turbo-progs imagemagick python3 python3-numpy bc
mkdir -p "$WORK"
find "$CORPUS" -name '*.jpg' -print0 | sort -z > "$WORK/list"
COUNT=$(tr -cd '\0' < "$WORK/list" | wc -c)

declare -A COMMAND TIMES
TOOLS=(in-place reencode jpegtran djpeg-cjpeg)
COMMAND[in-place]='xargs -0 "$STAMPCAM" apply --max-size 0 -o "$OUT" -j 2 -q --user "Li Wei" --project "Bridge 7"'
COMMAND[reencode]='xargs -0 "$STAMPCAM" apply --max-size 0 --reencode -o "$OUT" -j 2 -q --user "Li Wei" --project "Bridge 7"'
COMMAND[jpegtran]='xargs -0 -n 1 -P 2 sh -c '"'"'jpegtran -copy all "$0" > "$OUT/${0##*/}"'"'"
COMMAND[djpeg-cjpeg]='xargs -0 -n 1 -P 2 sh -c '"'"'djpeg "$0" | cjpeg -quality 90 -optimize > "$OUT/${0##*/}"'"'"

once() {
    local name=$1 start end
    export OUT=$WORK/out-$name
    rm -rf "$OUT"; mkdir -p "$OUT"
    sync
    start=$(date +%s.%N)
    bash -c "${COMMAND[$name]}" < "$WORK/list" > /dev/null 2> "$WORK/err-$name" || echo "$name: exit status $? (see $WORK/err-$name)"
    end=$(date +%s.%N)
    TIMES[$name]+="$(echo "$end - $start" | bc -l) "
}
for _ in $(seq "$RUNS"); do
    for name in "${TOOLS[@]}"; do once "$name"; done
done
median() { printf '%s\n' ${TIMES[$1]} | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p"; }
us=$(median in-place)
echo "full size: $COUNT photos from $CORPUS, -j 2, median of $RUNS rounds ($(date -u +%FT%TZ))"
echo
echo "| full size | seconds | photos/s | time / in place |"
echo "|---|---|---|---|"
for name in "${TOOLS[@]}"; do
    secs=$(median "$name")
    printf '| %s | %.2f | %.1f | %.2f |\n' "$name" "$secs" "$(echo "$COUNT / $secs" | bc -l)" "$(echo "$secs / $us" | bc -l)"
done
echo
python3 Tests/bench/fullsize.py "$WORK/list" "$WORK/out-in-place" "$WORK/out-reencode"
