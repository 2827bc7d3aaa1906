#!/usr/bin/env bash
# A throw-away single-node Slurm cluster for tests/cluster.rs.
#
#   tests/slurm/cluster.sh start DIR   # prints `export SLURM_CONF=DIR/slurm.conf`
#   tests/slurm/cluster.sh stop DIR
#
# `start` makes DIR (an empty or missing folder) hold everything the cluster
# needs and writes: a fresh munge key and munged's socket, pid, seed and log;
# slurm.conf; slurmctld's state and slurmd's spool; both daemons' logs and pid
# files. It starts munged, `slurmctld -D` and `slurmd -D` in the background,
# waits until the node is idle, and prints the one line a caller needs to
# point Slurm's commands (sbatch, squeue, scontrol, sinfo) at this cluster.
# Nothing outside DIR is written, and no system service is used: the
# packages' own munge and slurm services stay stopped.
#
# Ports: slurmctld listens on a TCP port P and slurmd on P+1, with P the
# first pair of free ports found from a starting point drawn at random in
# 20000-29998 (so two test runs on one machine rarely even try the same
# pair). The chosen ports are written to DIR/ports. munged uses a Unix socket
# in DIR, not a port. Everything listens on this machine only: the node's
# address is 127.0.0.1.
#
# `stop` cancels the cluster's jobs, ends the three daemons recorded in DIR's
# pid files (only those) and waits for them to exit. It is safe to call
# twice or after a failed start. tests/cluster.rs calls it when the test
# ends, passing or failing; a test process killed outright leaves the
# daemons running: stop them with this command and the folder the test
# printed.
#
# Slurm 22.05 (Debian 12) runs here as root with proctrack/linuxproc and
# task/none: no cgroups and no systemd are needed. Installed by
# .ci/install-slurm.
set -euo pipefail

usage() {
    echo "usage: $0 start|stop DIR" >&2
    exit 2
}
[ $# -eq 2 ] || usage
action=$1
dir=$2

# Every daemon this script starts, by the pid file it writes.
pid_files=(slurmd.pid slurmctld.pid munged.pid)

# Whether process $1 still runs (a zombie, exited but not yet reaped by
# whoever inherited it, does not).
running() {
    local state
    state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
    [ -n "$state" ] && [ "$state" != Z ]
}

stop() {
    [ -d "$dir" ] || return 0
    local f pid
    # Jobs still running (a test that timed out) are cancelled first: their
    # processes are slurmd's grandchildren and would outlive it. Only this
    # cluster's jobs: scancel talks to this cluster's slurmctld alone.
    if [ -s "$dir/slurmctld.pid" ] && running "$(cat "$dir/slurmctld.pid")"; then
        SLURM_CONF="$dir/slurm.conf" scancel --user="$(id -un)" 2>/dev/null || true
        for _ in $(seq 1 100); do
            [ -z "$(SLURM_CONF="$dir/slurm.conf" squeue -h -t running,completing 2>/dev/null)" ] && break
            sleep 0.1
        done
    fi
    for f in "${pid_files[@]}"; do
        [ -s "$dir/$f" ] || continue
        pid=$(cat "$dir/$f")
        kill "$pid" 2>/dev/null || true
    done
    # Each daemon exits within a second or two of SIGTERM; after 20 s the
    # ones still there are killed so that `stop` always returns.
    local i
    for i in $(seq 1 200); do
        local alive=0
        for f in "${pid_files[@]}"; do
            [ -s "$dir/$f" ] || continue
            pid=$(cat "$dir/$f")
            if running "$pid"; then alive=1; fi
        done
        [ $alive -eq 1 ] || break
        if [ "$i" -eq 200 ]; then
            for f in "${pid_files[@]}"; do
                [ -s "$dir/$f" ] && kill -9 "$(cat "$dir/$f")" 2>/dev/null || true
            done
        fi
        sleep 0.1
    done
    for f in "${pid_files[@]}"; do rm -f "$dir/$f"; done
}

fail() {
    echo "cluster.sh: error: $*" >&2
    for log in munged.log slurmctld.log slurmd.log; do
        if [ -s "$dir/$log" ]; then
            echo "--- last lines of $dir/$log" >&2
            tail -n 20 "$dir/$log" >&2
        fi
    done
    stop
    exit 1
}

# Whether TCP port $1 is taken on this machine, by any socket in any state
# (read from /proc, so that nothing beyond the kernel is needed).
port_in_use() {
    local hex
    hex=$(printf ':%04X' "$1")
    awk -v h="$hex" 'FNR > 1 && substr($2, length($2) - 4) == h { found = 1 }
        END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

start() {
    local prog
    for prog in munged mungekey slurmctld slurmd sinfo; do
        command -v "$prog" >/dev/null 2>&1 ||
            { echo "cluster.sh: error: $prog is not installed: run .ci/install-slurm" >&2; exit 1; }
    done
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ -z "$(ls -A "$dir")" ] || { echo "cluster.sh: error: $dir is not empty" >&2; exit 1; }
    mkdir "$dir/state" "$dir/spool"

    # munge: its own key and socket, so this cluster neither needs nor
    # touches the machine's munge set-up. munged refuses a key readable by
    # others, and runs as root only when forced.
    mungekey --create --keyfile="$dir/munge.key" --bits=1024 >/dev/null 2>&1 ||
        dd if=/dev/urandom of="$dir/munge.key" bs=128 count=1 status=none
    chmod 600 "$dir/munge.key"
    munged --force --socket="$dir/munge.socket" --key-file="$dir/munge.key" \
        --pid-file="$dir/munged.pid" --seed-file="$dir/munged.seed" \
        --log-file="$dir/munged.log" </dev/null >>"$dir/munged.log" 2>&1 ||
        fail "munged did not start"

    local base port
    base=$((20000 + RANDOM % 9999))
    port=""
    for p in $(seq "$base" 2 29998) $(seq 20000 2 "$base"); do
        if ! port_in_use "$p" && ! port_in_use $((p + 1)); then
            port=$p
            break
        fi
    done
    [ -n "$port" ] || fail "no free pair of ports in 20000-29999"
    echo "slurmctld $port, slurmd $((port + 1))" >"$dir/ports"

    local host cpus
    host=$(hostname -s)
    cpus=$(nproc)
    cat >"$dir/slurm.conf" <<CONF
# Written by tests/slurm/cluster.sh: a single-node test cluster in $dir.
ClusterName=skirmish-test
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
# The default 60 s between scheduling passes would leave a job whose
# dependency was just satisfied waiting for up to a minute.
SchedulerParameters=sched_interval=1
# Keep finished jobs visible to scontrol for the test's checks.
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"

    # -D keeps each daemon in the foreground of its own background job, which
    # is how Slurm runs without systemd; its pid file is what `stop` uses.
    # Their standard streams go to their logs, so that a caller reading this
    # script's output to its end is not kept waiting by a daemon.
    slurmctld -D -f "$SLURM_CONF" </dev/null >>"$dir/slurmctld.log" 2>&1 &
    slurmd -D -f "$SLURM_CONF" </dev/null >>"$dir/slurmd.log" 2>&1 &

    # The node is usable once slurmd has registered and sinfo calls it idle:
    # typically 1-3 s.
    local i state=""
    for i in $(seq 1 300); do
        state=$(sinfo -h -N -o '%t' 2>/dev/null | head -n 1 || true)
        [ "$state" = idle ] && break
        sleep 0.1
    done
    [ "$state" = idle ] || fail "the node is not idle after 30 s (sinfo says '${state:-nothing}')"
    echo "export SLURM_CONF=$SLURM_CONF"
}

case "$action" in
start) start ;;
stop) stop ;;
*) usage ;;
esac
