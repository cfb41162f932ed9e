#!/bin/sh
# Tests/Fuzz/run.sh SCRATCH SECONDS TARGET...: runs each libFuzzer target (SCRATCH/debug/TARGET,
# built by `make fuzz`) for SECONDS on its corpus, SCRATCH/corpus/NAME (kept from run to run,
# grown by each), seeded from SCRATCH/seeds/NAME (made by the FuzzSeedTests) and
# Tests/Fuzz/seeds/NAME (written by hand); NAME is the target's name without "Fuzz", in lower
# case. A crash, a failed check, a leak or an input that takes over 10 s fails the run and leaves
# the input in SCRATCH/crashes/NAME/ and the fuzzer's output in SCRATCH/logs/NAME.log.
set -u
scratch=$1 seconds=$2
shift 2
failed=0
for target in "$@"; do
    name=$(printf '%s' "${target#Fuzz}" | tr 'A-Z' 'a-z')
    corpus=$scratch/corpus/$name crashes=$scratch/crashes/$name log=$scratch/logs/$name.log
    mkdir -p "$corpus" "$crashes" "$scratch/logs"
    set -- "$corpus"
    for seeds in "$scratch/seeds/$name" "Tests/Fuzz/seeds/$name"; do [ -d "$seeds" ] && set -- "$@" "$seeds"; done
    [ "$name" = json ] && set -- "$@" templates  # the built-in styles are JSON too
    # Swift's own crash reporter stays out of the way of the sanitizer's and libFuzzer's.
    if SWIFT_BACKTRACE=enable=no "$scratch/debug/$target" "$@" -max_total_time="$seconds" -timeout=10 \
            -artifact_prefix="$crashes/" -print_final_stats=1 >"$log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
        echo "fuzz $name: ${runs:-?} inputs in ${seconds} s, no crash ($(ls "$corpus" | wc -l) in the corpus)"
    else
        failed=1
        echo "fuzz $name: FAILED; the input is in $crashes/, the output in $log:"
        grep -E -m 8 'ERROR|Fatal error|Precondition failed|SUMMARY|deadly|Test unit written' "$log" | sed 's/^/    /'
    fi
done
exit $failed
