#!/usr/bin/env bash
# performance.sh OUTPUT.md — `make bench`: runs every benchmark and writes OUTPUT.md (docs/performance.md)
# anew: the date, the commit and the machine, then each benchmark's figures as it printed them, then
# how they are measured. A benchmark that cannot run here (no corpus, no perf, no VM) says so in its
# section; the others still run. Its logs stay in .build/bench/.
#
# Environment (the Makefile sets them): STAMPCAM (the static-stdlib binary, what `make install` and
# the deb ship), RELEASE_STAMPCAM (.build/release/stampcam), PYTHON (the venv with Selenium's
# dependencies: Tests/web/bench.py), VIVID_CACHE (.build/vivid). BENCH_ONLY="web report" measures only
# those sections and writes the file with the others' last logs (a partial run: say so when you commit).
set -uo pipefail
output=$1
cd "$(dirname "$0")/../.."
root=$PWD
logs=$root/.build/bench
mkdir -p "$logs"
: "${STAMPCAM:?}" "${RELEASE_STAMPCAM:?}" "${PYTHON:?}" "${VIVID_CACHE:=$root/.build/vivid}"

# section NAME COMMAND...: runs COMMAND, its output to .build/bench/NAME.log (and the terminal).
# BENCH_ONLY="web report" runs only those sections and keeps the others' last logs.
section() {
    local name=$1; shift
    if [ -n "${BENCH_ONLY:-}" ] && [[ " $BENCH_ONLY " != *" $name "* ]]; then return 0; fi
    echo "== bench: $name"
    "$@" 2>&1 | tee "$logs/$name.log"
    echo "${PIPESTATUS[0]}" > "$logs/$name.status"
}

if [ -d "${CORPUS:-../shared/corpus}" ]; then
    section batch env STAMPCAM="$STAMPCAM" Tests/bench/run.sh
    section fullsize env STAMPCAM="$STAMPCAM" Tests/bench/fullsize.sh
else
    section batch echo "skipped: no ../shared/corpus beside the checkout"
    section fullsize echo "skipped: no ../shared/corpus beside the checkout"
fi
section bigphoto Tests/bench/bigphoto.sh "$RELEASE_STAMPCAM"
section web "$PYTHON" Tests/web/bench.py "$RELEASE_STAMPCAM"
section review "$PYTHON" Tests/web/review_bench.py "$RELEASE_STAMPCAM"
section lead "$PYTHON" Tests/web/lead_bench.py "$RELEASE_STAMPCAM"
section report Tests/report/run.sh "$RELEASE_STAMPCAM"
section capture Tests/vivid/bench.sh "$VIVID_CACHE" "$STAMPCAM"
section profile Tests/bench/profile.sh "$STAMPCAM" "$logs/profile.txt"
if [ -f .build/places/cities1000.csv ]; then
    section places env STAMPCAM_PLACES=.build/places/cities1000.csv XDG_CACHE_HOME="$logs/cache" "$RELEASE_STAMPCAM" places --bench
else
    section places echo "skipped: no place table (make places)"
fi

# figures NAME FILTER: the lines of NAME's log that FILTER (an extended regex) picks, in a code block,
# or why there are none.
figures() {
    local status
    status=$(cat "$logs/$1.status" 2>/dev/null || echo "not run")
    echo '```'
    grep -E "$2" "$logs/$1.log" 2>/dev/null || sed -n '$p' "$logs/$1.log" 2>/dev/null
    case $status in
    0) ;;
    "not run") echo "(not measured yet: make bench)" ;;
    *) echo "(exit status $status: see .build/bench/$1.log)" ;;
    esac
    echo '```'
}

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || commit="$commit (with uncommitted changes)"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
{
cat <<EOF
# Performance

Measured by \`make bench\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, on $(nproc) CPUs
($cpu), $(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r). \`make bench\` writes this
file anew; the figures are one run's (medians where a benchmark repeats), on whatever else the
machine was doing. How each is measured is at the end.

## Batch apply (\`Tests/bench/run.sh\`)

EOF
if grep -q '^| tool' "$logs/batch.log" 2>/dev/null; then
    grep -E '^stampcam bench, ' "$logs/batch.log" | head -n 1 | sed 's/^stampcam bench, /The corpus: /;s/$/./'
    echo
    grep '^|' "$logs/batch.log"
    echo
    grep -E '^(stampcam|stampcam-unsigned|pyvips|floor|vips-cli|imagemagick|graphicsmagick) .*photos/s|^quality:|^stampcam/' "$logs/batch.log" | sed 's/^/    /'
    echo
    echo "Each style's stamp and the encoder on a 1024 px photo, and the viewfinders' frame rate (\`stampcam bench\`):"
    echo
    sed -n '/stamp cost per style/,$p' "$logs/batch.log" | tail -n +2 | sed 's/^/    /'
else
    figures batch '.'
fi
cat <<EOF

## Full size: stamped in place (\`Tests/bench/fullsize.sh\`)

$(if grep -q '^| full size' "$logs/fullsize.log" 2>/dev/null; then
    grep -E '^full size: ' "$logs/fullsize.log"; echo; grep '^|' "$logs/fullsize.log"; echo
    grep -E '^in place: ' "$logs/fullsize.log" | sed 's/^/    /'
else figures fullsize '.'; fi)

## A 108 MP photo at full size: peak memory (\`Tests/bench/bigphoto.sh\`)

$(figures bigphoto '^bigphoto: ')

## Browser viewfinder (\`Tests/web/bench.py\`)

$(figures web '^web ')

## A phone's shutter → stamped review (\`Tests/web/review_bench.py\`)

A 12-megapixel photo (4000×3000 JPEG) posted as the phone page's shutter sends it, stamped in place at
full size by a team server without a camera of its own, and the stamped picture fetched at a phone
screen's size (\`/uploads/ID?fit=1280\`), on loopback.

$(figures review '^shutter -> ')

## The lead's page, a day of 500 photos (\`Tests/web/lead_bench.py\`)

$(figures lead '^lead page')

## A 100-photo PDF report (\`Tests/report/run.sh\`)

$(figures report '^report: 100 photos')

## Capture in the vivid VM (\`Tests/vivid/bench.sh\`)

$(figures capture '^  ')

## Where a batch's time goes (\`Tests/bench/profile.sh\`)

$(figures profile '^(perf|top|  )')

## Place names (\`stampcam places --bench\`)

$(figures places '.')

EOF
cat Tests/bench/method.md
} > "$output.tmp" && mv "$output.tmp" "$output"
echo "bench: wrote $output"
