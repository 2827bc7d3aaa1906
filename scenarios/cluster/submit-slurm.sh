#!/usr/bin/env bash
# Runs one scenario on a Slurm cluster: submits slurm.sbatch (an array of
# shards) and slurm-merge.sbatch (the merge, held until every shard
# succeeded), and prints their job ids.
#
#   scenarios/cluster/submit-slurm.sh SCENARIO [SHARDS [REPORTS]]
#
#   SCENARIO  the scenario file, e.g. scenarios/trench_matrix.toml
#   SHARDS    the folder for the shard journals (default
#             shards/<scenario file name without .toml>); use a fresh one
#             per submission, on storage every node sees
#   REPORTS   where the report folder <name>/ goes (default reports)
#
# Environment: SKIRMISH, the skirmish binary (default: `skirmish` on PATH;
# an absolute path if the nodes' PATH differs); Slurm's own SBATCH_*
# variables (SBATCH_PARTITION, SBATCH_ACCOUNT, ...) apply to both jobs.
# Run it from the folder the relative paths are relative to: the jobs start
# there.
#
# The scenario is validated here first, so a mistake in it is reported now
# (exit 2) rather than by eight failed jobs.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
    echo "usage: $0 SCENARIO [SHARDS [REPORTS]]" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
skirmish=${SKIRMISH:-skirmish}

export SCENARIO=$1
export SHARDS=${2:-shards/$(basename "$SCENARIO" .toml)}
export REPORTS=${3:-reports}

"$skirmish" validate "$SCENARIO" >/dev/null
mkdir -p "$SHARDS"

# --parsable prints `jobid` or `jobid;cluster`.
array=$(sbatch --parsable "$here/slurm.sbatch")
array=${array%%;*}
merge=$(sbatch --parsable --dependency="afterok:$array" "$here/slurm-merge.sbatch")
merge=${merge%%;*}

echo "shards: array job $array, journals in $SHARDS/"
echo "merge: job $merge, starts when every shard succeeded; report in $REPORTS/"
echo "watch: squeue -j $array,$merge"
