# Shared settings of the eartest SLURM jobs (sourced, not run). Every job of one run must see
# the same values: submit.sh exports them, and sbatch passes the environment on.
#   EARTEST_RUN      name of the run (runs/<name>/ on the shared filesystem)      [required]
#   EARTEST_SHARED   a directory on the shared filesystem (NFS, Lustre, GPFS)    [required]
#   EARTEST_MODEL    the --model value (default: listener)
#   EARTEST_ARGS     further pytest options, the same for every job (e.g. "--ignore=bench/test_pitch")
#   EARTEST_REPO     the eartest checkout (default: the directory sbatch was run from)
#   EARTEST_PYTHON   the Python of eartest's venv (default: $EARTEST_REPO/.venv/bin/python)
set -euo pipefail
: "${EARTEST_RUN:?set EARTEST_RUN to the name of the run}"
: "${EARTEST_SHARED:?set EARTEST_SHARED to a directory on the shared filesystem}"
EARTEST_MODEL="${EARTEST_MODEL:-listener}"
EARTEST_ARGS="${EARTEST_ARGS:-}"
EARTEST_REPO="${EARTEST_REPO:-${SLURM_SUBMIT_DIR:-$PWD}}"
EARTEST_PYTHON="${EARTEST_PYTHON:-$EARTEST_REPO/.venv/bin/python}"
RUN_ROOT="$EARTEST_SHARED/runs/$EARTEST_RUN"
SHARED_CACHE="$EARTEST_SHARED/cache"   # stimuli (read-only for shards) and the merged responses
# xdist workers for a job with several CPUs (one CPU: no xdist, which would only add a process)
WORKERS=()
if [ "${SLURM_CPUS_PER_TASK:-1}" -gt 1 ]; then WORKERS=(-n "$SLURM_CPUS_PER_TASK"); fi
cd "$EARTEST_REPO"
mkdir -p "$RUN_ROOT" "$SHARED_CACHE"

# pytest's exit status 1 means some trials were answered wrongly: a result, not a failed job
run_pytest() {
    local status=0
    "$EARTEST_PYTHON" -m pytest "$@" || status=$?
    if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then
        echo "eartest: pytest ended with status $status" >&2
        exit "$status"
    fi
}
