#!/usr/bin/env bash
# CI: the SLURM profile (config/profiles/slurm) on a real one-node SLURM (scripts/local-slurm.sh).
#  1. start SLURM (installs slurm-wlm + munge when missing, root or sudo; and the plugin)
#  2. run the smoke study $STUDY through the profile into results/$RUN (fresh); while it runs,
#     scancel the job of rule $KILL_RULE (each attempt: the profile retries a failed job once)
#  3. assert: every submitted job got its rule's threads/mem_mb/runtime as --cpus-per-task/--mem/
#     --time (scontrol); the run reported the cancelled jobs, naming their SLURM logs
#  4. rerun the same command: it runs exactly what a dry run says is missing, rewrites nothing else
#  5. claims.csv and figure CSVs equal the local smoke run's (results/$REF), timing aside
# SLURM is stopped at the end, pass or fail. Every wait has a time limit.
set -euo pipefail
cd "$(dirname "$0")/.."

STUDY=scvb0
RUN=${CI_SLURM_RUN:-slurmci}
REF=${CI_SLURM_REF:-smoke}           # the local run to compare with (built by .ci/run's smoke step)
KILL_RULE=scvb0_fig4_7               # ~20 s, only the claims depend on it
RUN_LIMIT=${CI_SLURM_RUN_LIMIT:-900} # seconds for each run through SLURM
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg
# This cluster has no accounting database, so job states come from squeue instead of sacct
# (local-slurm.sh keeps finished jobs visible there for 30 min); its jobs are short, so the
# first status check comes after 5 s instead of 40 s. Nothing else is added to the profile.
SM=(snakemake --profile config/profiles/slurm
    --slurm-status-command squeue --slurm-init-seconds-before-status-checks 5
    --config "run=$RUN" -- "$STUDY")
LOGS=$(mktemp -d -t ci-slurm.XXXXXX)
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
start=$SECONDS
smpid=

say() { printf '\n== ci-slurm: %s (%ds)\n' "$*" $((SECONDS - start)); }
fail() {
    printf 'ci-slurm: FAIL: %s\n' "$*" >&2
    exit 1
}
check() { python scripts/ci_slurm_check.py "$@"; }

cleanup() {
    local rc=$?
    if [ -n "$smpid" ] && kill -0 "$smpid" 2>/dev/null; then kill "$smpid" 2>/dev/null || true; fi
    say "stopping SLURM"
    $SUDO scripts/local-slurm.sh stop || rc=1
    [ $rc = 0 ] && say "passed; logs in $LOGS" || say "FAILED (rc $rc); logs in $LOGS"
    exit $rc
}
trap cleanup EXIT

if ! python -c "import importlib.util as u, sys
sys.exit(u.find_spec('snakemake_executor_plugin_slurm') is None)"; then
    say "installing the SLURM executor plugin (extra 'cluster')"
    python -m pip install -q -e ".[cluster]"
fi

if [ ! -s "results/$REF/$STUDY/claims.csv" ]; then
    say "no local run results/$REF: building $STUDY locally"
    timeout "$RUN_LIMIT" snakemake --cores 2 --config "run=$REF" -- "$STUDY" >"$LOGS/local.log" 2>&1 ||
        fail "local reference run failed; see $LOGS/local.log"
fi

say "starting SLURM"
$SUDO scripts/local-slurm.sh start

rm -rf "results/$RUN" "logs/$RUN" "benchmarks/$RUN"

say "run 1 through the profile; scancel rule $KILL_RULE while it runs"
: >"$LOGS/run1.log"
timeout "$RUN_LIMIT" "${SM[@]}" >"$LOGS/run1.log" 2>&1 &
smpid=$!
run_id=
for ((t = 0; t < 120; t++)); do
    run_id=$(sed -n 's/^SLURM run ID: //p' "$LOGS/run1.log" | head -n 1) || true
    [ -n "$run_id" ] && break
    kill -0 "$smpid" 2>/dev/null || break
    sleep 1
done
[ -n "$run_id" ] || fail "no 'SLURM run ID' in the Snakemake log within 120 s; see $LOGS/run1.log"
echo "SLURM run ID (job name): $run_id"
cancelled=()
while kill -0 "$smpid" 2>/dev/null; do
    # our run's running jobs of KILL_RULE (the comment names the rule); each seen for >= 3 s
    while read -r id comment rtime; do
        [ -n "$id" ] && [ "$comment" = "rule_$KILL_RULE" ] || continue
        [[ " ${cancelled[*]} " == *" $id "* ]] && continue
        [[ $rtime == 0:0[0-2] ]] && continue
        echo "scancel $id ($comment, running for $rtime)"
        scancel "$id"
        cancelled+=("$id")
    done < <(squeue -h -n "$run_id" -t RUNNING -o '%i %k %M' 2>/dev/null || true)
    sleep 1
done
set +e
wait "$smpid"
rc1=$?
set -e
smpid=
[ $rc1 = 124 ] && fail "run 1 did not end within ${RUN_LIMIT}s; see $LOGS/run1.log"
[ ${#cancelled[@]} -gt 0 ] || fail "no running $KILL_RULE job was seen to cancel; see $LOGS/run1.log"
[ $rc1 != 0 ] || fail "run 1 succeeded although its $KILL_RULE job was cancelled"
echo "run 1 exited $rc1 after cancelling ${cancelled[*]}"
grep -E "SLURM-job '[0-9]+' failed|^Error in rule|log: .*slurm|Trying to restart|Exiting because" \
    "$LOGS/run1.log" | cut -c1-240 || true

say "checks: cancelled jobs reported with their logs; resources reached sbatch"
check cancelled "$LOGS/run1.log" "${cancelled[@]}"

say "dry run: what is missing"
timeout 300 snakemake -n "${SM[@]:1}" >"$LOGS/dry.log" 2>&1 || fail "dry run failed; see $LOGS/dry.log"
check snapshot "results/$RUN" "$LOGS/before.json"

say "run 2: the same command"
timeout "$RUN_LIMIT" "${SM[@]}" >"$LOGS/run2.log" 2>&1 ||
    fail "run 2 failed (rc $?); see $LOGS/run2.log"
check rerun "$LOGS/dry.log" "$LOGS/run1.log" "$LOGS/run2.log" "$LOGS/before.json" "results/$RUN"
check resources "$LOGS/run1.log" "$LOGS/run2.log"

say "outputs equal the local run's"
check compare "results/$REF/$STUDY" "results/$RUN/$STUDY"
