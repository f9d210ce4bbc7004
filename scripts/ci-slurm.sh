#!/usr/bin/env bash
# CI: the SLURM profile (config/profiles/slurm) on a real one-node SLURM (scripts/local-slurm.sh),
# on iwtm's fanned-out jobs (issue 39: one job per part, latentlab.studies.iwtm.parts).
#  1. start SLURM (installs slurm-wlm + munge when missing, root or sudo; and the plugin)
#  2. run 1: iwtm's Table 4.1 at smoke size through the profile into results/$RUN (fresh):
#     its ch4 parts (per (T, n_train, seed): the Gibbs fit, the fold-in from its state, the
#     sLDA sweep), ch5 parts (per (n_train, seed)), the two collecting jobs and the table;
#     while it runs, scancel the ch5 part $KILL_PART (each attempt: the profile retries once)
#  3. assert: every submitted job got its rule's threads/mem_mb/runtime as --cpus-per-task/
#     --mem/--time (scontrol); the run reported the cancelled jobs, naming their SLURM logs
#  4. rerun the same command: it runs exactly what a dry run says is missing, rewrites nothing
#     else; table4_1.csv equals the local smoke run's (results/$REF), timing aside
#  5. run 3, a checkpointed job: one ch4 Gibbs fit (1,000 sweeps, the state saved every 0.5 s:
#     LATENTLAB_CHECKPOINT_SECONDS) through the profile, cancelled once mid-way (1.5 s after its
#     first checkpoint); the profile's retry resumes from the checkpoint (its log says where) and the
#     state it ends with equals the same fit run locally without a break, bit for bit
# SLURM is stopped at the end, pass or fail. Every wait has a time limit.
set -euo pipefail
cd "$(dirname "$0")/.."

STUDY=iwtm
RUN=${CI_SLURM_RUN:-slurmci}
REF=${CI_SLURM_REF:-smoke}           # the local run to compare with (built by .ci/run's smoke step)
TARGET=table4_1.csv                  # ch4 and ch5 of the smoke config, fanned out
KILL_PART=ch5_syn_iwtm_n20_r0        # a ch5 part (~15 s): only ch5, the table depend on it
RUN_LIMIT=${CI_SLURM_RUN_LIMIT:-900} # seconds for each run through SLURM
FIT=parts/ch4_syn_iwtm/T5_n20_r0_fit.npz # the checkpointed job of run 3
export PYTHONUNBUFFERED=1 MPLBACKEND=Agg
# This cluster has no accounting database, so job states come from squeue instead of sacct
# (local-slurm.sh keeps finished jobs visible there for 30 min); its jobs are short, so the
# first status check comes after 5 s instead of 40 s. Nothing else is added to the profile.
PROFILE=(snakemake --profile config/profiles/slurm
         --slurm-status-command squeue --slurm-init-seconds-before-status-checks 5)
SM=("${PROFILE[@]}" --config "run=$RUN" -- "results/$RUN/$STUDY/$TARGET")
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

if [ ! -s "results/$REF/$STUDY/$TARGET" ]; then
    say "no local run results/$REF: building $STUDY's $TARGET locally"
    timeout "$RUN_LIMIT" snakemake --cores 2 --config "run=$REF" -- "results/$REF/$STUDY/$TARGET" \
        >"$LOGS/local.log" 2>&1 || fail "local reference run failed; see $LOGS/local.log"
fi

say "starting SLURM"
$SUDO scripts/local-slurm.sh start

rm -rf "results/$RUN" "logs/$RUN" "benchmarks/$RUN"

say "run 1 through the profile; scancel the part $KILL_PART while it runs"
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
    # our run's running jobs of KILL_PART (the comment names the rule and the wildcards);
    # each seen for >= 3 s
    while read -r id comment rtime; do
        [ -n "$id" ] && [ "$comment" = "rule_iwtm_part_wildcards_$KILL_PART" ] || continue
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
[ ${#cancelled[@]} -gt 0 ] || fail "no running $KILL_PART job was seen to cancel; see $LOGS/run1.log"
[ $rc1 != 0 ] || fail "run 1 succeeded although its $KILL_PART job was cancelled"
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
check compare-files "results/$REF/$STUDY" "results/$RUN/$STUDY" "$TARGET"

say "run 3: a checkpointed Gibbs fit, cancelled once after its first checkpoint, resumed"
# a checkpoint written by uncommitted code is never read back (latentlab.checkpoint)
commit=$(python -c "from latentlab.provenance import source_commit; print(source_commit('.'))")
[[ $commit != *+dirty && $commit != unknown ]] ||
    fail "the source is $commit: commit it first (a +dirty source never resumes a checkpoint)"
CK=$LOGS/ck.yaml
printf 'base: smoke\nrun: %s\niwtm: {gibbs: {n_iter: 1000}}\n' "${RUN}_ck" >"$CK"
printf 'base: smoke\nrun: %s\niwtm: {gibbs: {n_iter: 1000}}\n' "${RUN}_ckref" >"$LOGS/ckref.yaml"
rm -rf "results/${RUN}_ck" "logs/${RUN}_ck" "results/${RUN}_ckref" "logs/${RUN}_ckref"
ckpt="results/${RUN}_ck/$STUDY/$FIT.ckpt"
: >"$LOGS/run3.log"
LATENTLAB_CHECKPOINT_SECONDS=0.5 timeout "$RUN_LIMIT" "${PROFILE[@]}" --configfile "$CK" -- \
    "results/${RUN}_ck/$STUDY/$FIT" >"$LOGS/run3.log" 2>&1 &
smpid=$!
fit_id=
for ((t = 0; t < RUN_LIMIT * 5; t++)); do
    kill -0 "$smpid" 2>/dev/null || break
    if [ -s "$ckpt" ]; then
        fit_id=$(squeue -h -t RUNNING -o '%i %k' 2>/dev/null |
            awk '$2 ~ /^rule_iwtm_part_wildcards_ch4_syn_iwtm_T5_n20_r0_fit/ {print $1}' | head -n 1)
        if [ -n "$fit_id" ]; then
            sleep 1.5 # a few more checkpoints: killed mid-way, not at the first save
            echo "checkpoint $ckpt written: scancel $fit_id"
            scancel "$fit_id"
            break
        fi
    fi
    sleep 0.2
done
[ -n "$fit_id" ] || fail "the fit ended or never checkpointed before it could be cancelled; see $LOGS/run3.log"
set +e
wait "$smpid"
rc3=$?
set -e
smpid=
[ $rc3 = 0 ] || fail "run 3 failed (rc $rc3): the retry did not finish the fit; see $LOGS/run3.log"
check resumed "$LOGS/run3.log" "logs/${RUN}_ck/$STUDY/parts/ch4_syn_iwtm/T5_n20_r0_fit.log" "$fit_id"
check resources "$LOGS/run3.log"

say "the same fit locally, without a break"
timeout "$RUN_LIMIT" snakemake --cores 2 --configfile "$LOGS/ckref.yaml" -- \
    "results/${RUN}_ckref/$STUDY/$FIT" >"$LOGS/ckref.log" 2>&1 ||
    fail "the local fit failed; see $LOGS/ckref.log"
check same-state "results/${RUN}_ckref/$STUDY/$FIT" "results/${RUN}_ck/$STUDY/$FIT"
