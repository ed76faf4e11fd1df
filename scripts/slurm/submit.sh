#!/bin/bash
# Submit one sharded eartest run: pre-render, N shard tasks, then the merge.
#   EARTEST_RUN=gemini-1 EARTEST_SHARED=/shared/eartest EARTEST_MODEL=gemini-pro \
#       scripts/slurm/submit.sh 8
# Run it from the eartest checkout; extra sbatch options go in SBATCH_* variables
# (e.g. SBATCH_PARTITION, SBATCH_ACCOUNT), which sbatch reads itself.
set -euo pipefail
N="${1:?usage: submit.sh N (the number of shards)}"
: "${EARTEST_RUN:?set EARTEST_RUN}" "${EARTEST_SHARED:?set EARTEST_SHARED}"
export EARTEST_RUN EARTEST_SHARED EARTEST_MODEL EARTEST_ARGS EARTEST_REPO="${EARTEST_REPO:-$PWD}"
here="$(cd "$(dirname "$0")" && pwd)"
render=$(sbatch --parsable --export=ALL "$here/prerender.sbatch")
shards=$(sbatch --parsable --export=ALL --dependency="afterok:$render" --array="1-$N" \
    "$here/shards.sbatch")
merge=$(sbatch --parsable --export=ALL --dependency="afterok:$shards" "$here/merge.sbatch")
echo "eartest: render job $render, shard array $shards (1-$N), merge job $merge"
echo "eartest: report at $EARTEST_SHARED/runs/$EARTEST_RUN/merged/report.html when $merge ends"
