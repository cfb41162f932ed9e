#!/usr/bin/env bash
# make test-hostile: malformed and hostile inputs against `stampcam apply`, black-box.
#
#   Tests/hostile/run.sh [STAMPCAM]      (default: .build/release/stampcam of this checkout)
#
# make_inputs.py generates the set (from a generated PPM and stampcam's own test card) into a temp
# folder; each input is then stamped on its own, and the whole folder once at -j 2 under GNU time;
# check.py asserts: no crash or hang, the documented exit code, one stderr line per failed input
# naming it, outputs for exactly the good (and salvageable) photos, valid JPEGs, inputs unchanged,
# peak RSS. Then `stampcam verify` reads every input and the hostile manifest stores of
# make_manifests.py: none may crash, hang or verify; then hostile_numbers.py puts hostile numbers in every
# numeric field of every input. Exit 0 only when every check passes.
#
# HOSTILE_TIMEOUT   seconds after which a run counts as hung and is killed (default 60: a failsafe far
# above any run's time, not a speed limit); HOSTILE_RSS_MB peak RSS limit of the batch (default
# 150); HOSTILE_KEEP=1 keeps the temp folder and prints where it is.
set -uo pipefail   # no -e: stampcam failing is what is being tested

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
stampcam=$(realpath -e "${1:-$here/../../.build/release/stampcam}") || {
    echo "hostile: no stampcam binary (run 'swift build -c release' or 'make test-hostile')" >&2; exit 2; }
export HOSTILE_TIMEOUT=${HOSTILE_TIMEOUT:-60} HOSTILE_RSS_MB=${HOSTILE_RSS_MB:-150}

for tool in timeout /usr/bin/time djpeg cjpeg python3; do
    command -v "$tool" > /dev/null || {
        echo "hostile: '$tool' is missing (Debian: coreutils, time, libjpeg-turbo-progs, python3)" >&2; exit 2; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/stampcam-hostile.XXXXXX") || exit 2
cleanup() {
    if [ "${HOSTILE_KEEP:-}" = 1 ]; then echo "hostile: kept $work"; return; fi
    rm -rf -- "$work"   # rm unlinks the FIFO and the symlinks; it never opens them
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# A config file of the user's must not change what apply does here, nor these photos go into their catalog.
. "$here/../lib/checks.sh"
isolate "$work"

python3 "$here/make_inputs.py" --stampcam "$stampcam" --inputs "$work/in" --work "$work/work" || exit 2
python3 "$here/check.py" snapshot "$work/in" > "$work/before.json" || exit 2

# stamp RESULT ARGS...: one `stampcam apply ARGS` with its stdin closed, under the time limit
# (SIGTERM, then SIGKILL 2 s later) and GNU time; writes RESULT/{rc,clock,time,stdout,stderr}.
# The 4 GB address-space cap only keeps a runaway read (/dev/zero) from taking the machine down;
# it is far above the RSS limit, so a memory bomb still shows as one. --foreground keeps stampcam
# in our process group so Ctrl-C reaches it; GNU time ignores SIGINT and bash then only sees an
# exit status, so status 130 (stampcam's "interrupted") is what stops the harness.
stamp() {
    local result=$1 rc; shift
    mkdir -p "$result"
    local start=$EPOCHREALTIME
    (
        ulimit -v $((4 * 1024 * 1024))
        exec /usr/bin/time -v -o "$result/time" \
            timeout --foreground -k 2 "$HOSTILE_TIMEOUT" "$stampcam" apply "$@"
    ) < /dev/null > "$result/stdout" 2> "$result/stderr"
    rc=$?
    echo "$rc" > "$result/rc"
    echo "$start $EPOCHREALTIME" > "$result/clock"
    if [ "$rc" = 130 ]; then echo "hostile: interrupted" >&2; exit 130; fi
}

count=$(tr -cd '\0' < "$work/work/runs.list" | wc -c)
echo "hostile: stamping $((count / 2)) inputs one at a time, then the whole folder at -j 2 (a run still going after ${HOSTILE_TIMEOUT} s counts as hung)"
while IFS= read -r -d '' id && IFS= read -r -d '' name; do
    stamp "$work/runs/$id" "$work/in/$name" -o "$work/runs/$id/out"
done < "$work/work/runs.list"
stamp "$work/batch" -j 2 "$work/in" -o "$work/batch/out"

python3 "$here/check.py" report "$work"
status=$?

# verify: hostile C2PA manifest stores (make_manifests.py) and every input above. None is signed, so
# each must end (no crash, no hang) with one stderr line and a verdict that is not "valid": 12 no
# credentials, 13 changed, 14 damaged or invalid, or 66 for what cannot be read.
python3 "$here/make_manifests.py" "$work/manifests" || exit 2
judged=0 wrong=0
for input in "$work/manifests"/* "$work/in"/*; do
    timeout -k 2 "$HOSTILE_TIMEOUT" "$stampcam" verify "$input" < /dev/null > /dev/null 2> "$work/verify.err"
    rc=$? lines=$(wc -l < "$work/verify.err")
    case $rc in 12|13|14|66) if [ "$lines" = 1 ]; then judged=$((judged + 1)); continue; fi ;; esac
    wrong=$((wrong + 1))
    echo "FAIL - verify $(basename "$input"): exit $rc, $lines lines on stderr"
done
echo "hostile: verify: $judged inputs judged not valid in one line, $wrong wrong"

# Hostile numbers (±inf, NaN, 1e308, -0, past 2^63) in every numeric field of every input: the
# command line, the config, a template, GeoJSON, a stamp record, EXIF rationals, catalog rows and
# a team server's requests (hostile_numbers.py): never a trap, a refusal in one line.
python3 "$here/hostile_numbers.py" "$stampcam"
numbers=$?
[ "$status" = 0 ] && [ "$wrong" = 0 ] && [ "$numbers" = 0 ]
