#!/usr/bin/env bash
# A perf profile of `stampcam apply -j 1` over the corpus (or its first $PROFILE_PHOTOS photos),
# summarised as the top 5 libraries and the top 5 functions by share of samples (self time).
# Debian's libraries are stripped of their static functions: those samples are folded into one
# line per library. Usage: profile.sh STAMPCAM OUTPUT.txt
set -euo pipefail
stampcam=$1 output=$2
CORPUS=${CORPUS:-../shared/corpus}
PHOTOS=${PROFILE_PHOTOS:-30}
if [ ! -d "$CORPUS" ]; then echo "profile: skipped, no corpus at $CORPUS"; exit 0; fi
command -v perf > /dev/null || { echo "profile: skipped, perf is not installed (apt-get install linux-perf)"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
find "$CORPUS" -name '*.jpg' -print0 | sort -z | head -z -n "$PHOTOS" > "$work/list"
xargs -0 perf record -q -o "$work/perf.data" -F 2000 -- "$stampcam" apply -j 1 -q -o "$work/out" \
    --user "李伟 Li Wei" --location "Pier 4, Nanjing" --project "Bridge 7" < "$work/list" > /dev/null 2>&1
{
    echo "perf profile: $stampcam apply -j 1, $PHOTOS photos of $CORPUS ($(date -u +%F))"
    echo "top 5 libraries (self):"
    perf report -i "$work/perf.data" --no-children --sort dso --stdio 2>/dev/null |
        grep -E '^ +[0-9]' | sed -n 1,5p | awk '{printf "  %7s  %s\n", $1, $2}'
    echo "top 5 functions (self; a library's stripped static code counted as one):"
    perf report -i "$work/perf.data" --no-children --sort dso,sym --stdio 2>/dev/null | grep -E '^ +[0-9]' |
        awk '{ share = $1; sub(/%/, "", share); dso = $2; sym = $4
               if (sym ~ /^0x/) sym = "(static code of " dso ")"; else sym = sym " (" dso ")"
               total[sym] += share }
             END { for (s in total) printf "  %6.2f%%  %s\n", total[s], s }' | sort -rn | sed -n 1,5p
} | tee "$output"
