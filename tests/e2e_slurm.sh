#!/bin/bash
# batch --slurm on a real single-node Slurm: munged, slurmctld and slurmd
# started here with the test's own key, socket, configuration, state and
# logs (nothing of the machine's own set-up is used or changed), a
# sharded batch submitted and merged, then a task killed mid-run and the
# script submitted again.  The daemons are stopped by their process ids.
#
# Needs root and Debian's slurm-wlm and munge (.ci/run installs them).
# It fails, with the daemons' logs, where Slurm cannot start: it never
# skips.
# Usage: e2e_slurm.sh ILPM
ILPM=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/e2e_lib.sh"
die() {
    echo "FAIL: $*"
    for f in "$tmp"/log/*.log; do
        [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
    done
    exit 1
}

for p in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol; do
    command -v "$p" >/dev/null || PATH=$PATH:/usr/sbin
    command -v "$p" >/dev/null ||
        die "$p is missing: apt-get install slurm-wlm munge"
done
[ "$(id -u)" -eq 0 ] || die "the daemons need root (munged runs as munge)"
id munge >/dev/null 2>&1 || die "no munge user: apt-get install munge"

# The test's folder must be reachable by the munge user.
chmod 755 "$tmp"
mkdir -p "$tmp/munge" "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/work"
pids=()
stop_daemons() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap stop_daemons EXIT

# munge: its own key and socket, as the munge user.
mungekey --create --keyfile="$tmp/munge/munge.key" --force 2>"$tmp/log/mungekey.log" ||
    die "mungekey failed"
chown -R munge:munge "$tmp/munge"
# Clients (slurm's daemons and commands, as root) reach the socket here.
chmod 711 "$tmp/munge"
chmod 600 "$tmp/munge/munge.key"
# Its log goes where munge may write; copied into log/ on failure.
sock="$tmp/munge/munge.socket"
runuser -u munge -- munged --key-file="$tmp/munge/munge.key" \
    --socket="$sock" --pid-file="$tmp/munge/munged.pid" \
    --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" ||
    { cp "$tmp/munge/munged.log" "$tmp/log/munged.log" 2>/dev/null; die "munged did not start"; }
for _ in $(seq 50); do [ -s "$tmp/munge/munged.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$tmp/munge/munged.pid")")

host=$(hostname)
cpus=$(nproc)
# Ports of our own, so that another Slurm on the machine is no matter.
port=$((20000 + $$ % 20000))
cat >"$tmp/slurm.conf" <<EOF
ClusterName=ilpmtest
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SchedulerType=sched/builtin
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -f "$SLURM_CONF" -i || die "slurmctld did not start"
for _ in $(seq 100); do [ -s "$tmp/slurmctld.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$tmp/slurmctld.pid")")
slurmd -f "$SLURM_CONF" || die "slurmd did not start"
for _ in $(seq 100); do [ -s "$tmp/slurmd.pid" ] && break; sleep 0.1; done
pids+=("$(cat "$tmp/slurmd.pid")")
up=0
for _ in $(seq 300); do
    if sinfo -h -o %t 2>/dev/null | grep -qE '^(idle|mix|alloc)'; then up=1; break; fi
    sleep 0.1
done
[ "$up" -eq 1 ] || die "the node did not come up: $(sinfo 2>&1)"
echo "slurm up on $host ($cpus CPUs, ports $port-$((port + 1)))"

# Waits for every job of ours to leave the queue (at most $1 s).
drain() {
    for _ in $(seq $(($1 * 10))); do
        [ -z "$(squeue -h -o %i 2>/dev/null)" ] && return 0
        sleep 0.1
    done
    return 1
}
# The fields of a results file that do not depend on timing or on the
# shard that ran it: every column but times, counters and the host.
fields() {
    python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keep = ("puzzle", "instance", "file", "index", "formulation", "backend",
        "status", "verified", "count", "count_complete", "objective",
        "solution", "error")
for r in rows:
    print(",".join(r.get(k, "") for k in keep))
PY
}

cd "$tmp/work" || die "no work folder"
# The README's example: top1465 on both back ends in 4 shards.
cp "$root/data/sudoku/magictour_top1465.txt" top.txt

# One local run to compare with.
l0=$(date +%s.%N)
"$ILPM" batch sudoku top.txt --backend both --out local.csv --jobs 2 >/dev/null
rc=$?
l1=$(date +%s.%N)
check "local batch ran (exit $rc)" [ "$rc" -eq 0 ]

# The script alone: written, not submitted.
"$ILPM" batch sudoku top.txt --backend both --out r.csv --slurm 4 \
    --slurm-script job.sh --sbatch "--comment=ilpm-test" 2>script.err
check "script written" [ -x job.sh ]
check "script says how to submit" grep -q "bash job.sh" script.err
check "array of 4" grep -q -- "--array=0-3" job.sh
check "extra sbatch line" grep -q -- "#SBATCH --comment=ilpm-test" job.sh
check "merge after the array" grep -q -- "--dependency=afterok:" job.sh

# --submit: the array and the merge, and the merged file equal to the
# local run's in every field that does not depend on timing.
t0=$(date +%s.%N)
"$ILPM" batch sudoku top.txt --backend both --out r.csv --slurm 4 --submit >submit.out 2>submit.err
rc=$?
check "submitted (exit $rc: $(cat submit.err))" [ "$rc" -eq 0 ]
check "job ids printed" grep -qE '^array [0-9]+$' submit.out
check "merge id printed" grep -qE '^merge [0-9]+$' submit.out
drain 120 || die "the jobs did not end: $(squeue 2>&1)"
t1=$(date +%s.%N)
check "merged file written" [ -s r.csv ]
check "merged equals local" diff <(fields local.csv) <(fields r.csv)
check "2930 rows" [ "$(($(wc -l <r.csv) - 1))" -eq 2930 ]
echo "2930 runs: $(awk "BEGIN { print $t1 - $t0 }") s as 4 Slurm tasks and a" \
    "merge, $(awk "BEGIN { print $l1 - $l0 }") s as one local batch (--jobs 2)"

# A task killed mid-run, then the script submitted again: nothing lost,
# nothing twice.  A longer batch, so that the kill lands while it runs.
for _ in 1 2 3; do head -400 top.txt; done >long.txt
"$ILPM" batch sudoku long.txt --backend both --out k.csv --slurm 2 --slurm-script k.sh 2>/dev/null
bash k.sh >k1.out || die "k.sh failed: $(cat k1.out)"
array=$(sed -n 's/^array //p' k1.out)
killed=0
for _ in $(seq 300); do
    if [ "$(grep -c . k.csv.shards/shard-0.csv 2>/dev/null || echo 0)" -gt 50 ]; then
        scancel --signal=KILL "${array}_0" && killed=1
        break
    fi
    sleep 0.05
done
check "a task was killed mid-run" [ "$killed" -eq 1 ]
# The array ends; its merge waits on a dependency that can never hold.
for _ in $(seq 1200); do
    [ -z "$(squeue -h -j "$array" -o %i 2>/dev/null)" ] && break
    sleep 0.1
done
merge=$(cat k.csv.shards/merge.jobid)
state=$(squeue -h -j "$merge" -o "%T %r" 2>/dev/null)
check "the merge waits on its dependency ($state)" \
    [ "${state%% Dependency*}" = PENDING ]
check "no merge after a failed task" [ ! -e k.csv ]
partial=$(($(wc -l <k.csv.shards/shard-0.csv) - 1))
bash k.sh >k2.out || die "k.sh again failed: $(cat k2.out)"
check "the stale merge was cancelled" \
    [ -z "$(squeue -h -j "$merge" -o %i 2>/dev/null | grep -x "$merge")" ]
drain 120 || die "the resubmitted jobs did not end: $(squeue 2>&1)"
check "merged after resubmission" [ -s k.csv ]
rows=$(($(wc -l <k.csv) - 1))
check "every run once ($rows rows, $partial kept from the killed task)" [ "$rows" -eq 2400 ]
check "no key twice" [ -z "$(fields k.csv | cut -d, -f1-6 | sort | uniq -d)" ]
# Every row solved and verified: a run that the kill (or a SIGTERM before
# it) cut short is not a result, and the resubmission does it again.
notsolved=$(grep -v ',solved,true,' k.csv | tail -n +2 | head -3)
check "every row solved ($notsolved)" [ -z "$notsolved" ]

echo "$pass passed, $fail failed (slurm ran)"
[ "$fail" -eq 0 ]
