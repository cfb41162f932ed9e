#!/usr/bin/env bash
# run.sh STAMPCAM — sharded batches on a real scheduler: a one-node Slurm cluster (munged, slurmctld,
# slurmd on private sockets and ports, state in a temp folder) runs `sbatch --array=0-3` of
# `stampcam apply --shard $SLURM_ARRAY_TASK_ID/4 --skip-existing` over 24 photos into one folder:
# every photo must be stamped exactly once. Then a second set, whose task 1 is cancelled after its
# first photo and submitted again, must end the same: complete, no duplicates, no leftovers.
# When the daemons cannot start here, prints why and exits 0 (skipped). Prints `slurm: N passed,
# M failed` otherwise; exits 0 only when all passed.
set -u
binary=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/checks.sh"
work=$(mktemp -d /tmp/stampcam-slurm.XXXXXX)
gone() { ! kill -0 "$1" 2>/dev/null; }
cleanup() {
    for file in "$work"/*.pid; do
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        kill "$pid" 2>/dev/null && wait_until 30 gone "$pid"   # its files are removed next
    done
    rm -rf "$work"
}
trap cleanup EXIT
skip() { echo "slurm: skipped: $1"; exit 0; }
command -v slurmctld >/dev/null && command -v munged >/dev/null || skip "slurmctld or munged is not installed"
[ "$(id -u)" = 0 ] || skip "a one-node cluster of our own needs root (slurmd runs jobs as their user)"

# Munge on a socket of its own, with a key of its own.
dd if=/dev/urandom of="$work/munge.key" bs=1 count=1024 2>/dev/null && chmod 400 "$work/munge.key"
munged --force --socket="$work/munge.socket" --key-file="$work/munge.key" --log-file="$work/munge.log" \
    --pid-file="$work/munge.pid" --seed-file="$work/munge.seed" 2>"$work/munged.err" \
    || skip "munged does not start: $(head -c 200 "$work/munged.err")"

host=$(hostname -s)
port=$((20000 + RANDOM % 20000))
mkdir -p "$work/state" "$work/spool"
cat > "$work/slurm.conf" <<CONF
ClusterName=stampcam-test
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$work/munge.socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld 2>"$work/slurmctld.err" || skip "slurmctld does not start: $(head -c 200 "$work/slurmctld.err")"
slurmd 2>"$work/slurmd.err" || skip "slurmd does not start: $(head -c 200 "$work/slurmd.err")"
node_idle() { sinfo -h -o %t 2>/dev/null | grep -q idle; }
wait_until 60 node_idle || skip "the node does not come up: $(tail -c 300 "$work/slurmd.log" 2>/dev/null)"
echo "slurm: a one-node cluster is up ($host, port $port)"

# 24 photos in three folders (the shard hashes the path below the input folder).
photos() {  # photos FOLDER
    for sub in a b c; do
        for i in 1 2 3 4 5 6 7 8; do
            "$binary" test-card -o "$1/$sub" --time "2026-11-29T10:0$i:00+08:00" \
                --note "$sub$i" > /dev/null
        done
    done
}
# The job: the same inputs for every task, its own shard; a JSON line per photo into its log, a
# catalog of its own (merged afterwards with log --merge, as the README's recipe does). The inputs
# are test cards, stamped already: --stamp-again. The signing keys are made in the test's folder.
cat > "$work/job.sh" <<JOB
#!/bin/sh
exec env XDG_DATA_HOME="$work/data" "$binary" apply "\$1" -o "\$2" --skip-existing --shard "\$SLURM_ARRAY_TASK_ID/4" -j 1 --json --max-size 0 --stamp-again \\
    --catalog "\$2.catalog-\$SLURM_ARRAY_TASK_ID.sqlite"
JOB
chmod +x "$work/job.sh"
stamped_once() {  # stamped_once IN OUT: the output mirrors the input exactly, nothing more
    (cd "$1" && find . -type f -name '*.jpg' | sort) > "$work/want"
    (cd "$2" && find . -type f ! -name .stampcam | sort) > "$work/got"
    cmp -s "$work/want" "$work/got"
}
done_lines() { cat "$@" 2>/dev/null | grep -c '"status":"done"'; }

photos "$work/in"
check "24 input photos made" test "$(find "$work/in" -name '*.jpg' | wc -l)" = 24
sbatch --wait --array=0-3 --output="$work/log-%a.txt" "$work/job.sh" "$work/in" "$work/out" > /dev/null 2>"$work/sbatch.err"
check "sbatch --array=0-3 ran every task to the end" test $? = 0
check "every photo stamped exactly once (the output mirrors the input, nothing more)" stamped_once "$work/in" "$work/out"
check "the four tasks did 24 photos together, none twice" test "$(done_lines "$work"/log-?.txt)" = 24
# Disjoint parts: no task even looked at another's photo (without --shard each would report all 24).
check "each photo went to exactly one task" test "$(cat "$work"/log-?.txt | grep -c '"status"')" = 24
inputs_done=$(cat "$work"/log-?.txt | grep '"status":"done"' | sed 's/.*"input":"\([^"]*\)".*/\1/' | sort | uniq -d | wc -l)
check "no input was done by two tasks" test "$inputs_done" = 0
for t in 0 1 2 3; do
    check "task $t had a share of the photos" sh -c "grep -q '\"status\":\"done\"' '$work/log-$t.txt'"
done
logged() {  # logged OUT: the photos the tasks' catalogs hold, merged into one
    "$binary" log --merge --catalog "$1.all.sqlite" "$1".catalog-?.sqlite 2>/dev/null &&
        "$binary" log --catalog "$1.all.sqlite" | sort -u | wc -l
}
check "the four tasks' catalogs, merged, log all 24 photos" test "$(logged "$work/out")" = 24

# A task cancelled after its first photo (SIGTERM: the photo in flight is finished), submitted again.
photos "$work/in2"
job=$(sbatch --parsable --array=0-3 --output="$work/again-%a.txt" "$work/job.sh" "$work/in2" "$work/out2")
wait_until 120 grep -q '"status":"done"' "$work/again-1.txt"
scancel "${job}_1"
array_gone() { [ -z "$(squeue -h -j "$job" 2>/dev/null)" ]; }
wait_until 120 array_gone
first=$(done_lines "$work/again-1.txt")
check "task 1 was cancelled part-way ($first photos done)" test "$first" -ge 1
sbatch --wait --array=1 --output="$work/rerun-%a.txt" "$work/job.sh" "$work/in2" "$work/out2" > /dev/null 2>>"$work/sbatch.err"
check "task 1 submitted again ran to the end" test $? = 0
check "after the re-run every photo is stamped exactly once" stamped_once "$work/in2" "$work/out2"
check "no temp file or claim is left" test -z "$(find "$work/out2" -name '.stampcam-*')"
check "the re-run skipped what was done and did the rest: 24 in all" \
    test "$(( $(done_lines "$work"/again-?.txt) + $(done_lines "$work/rerun-1.txt") ))" = 24
check "merged, the catalogs of the tasks, the cancelled one's included, log all 24 photos" test "$(logged "$work/out2")" = 24

echo "slurm: $passed passed, $failed failed"
[ "$failed" = 0 ]
