#!/usr/bin/env bash
# Rebuild and publish the `real` run: each study from scratch (--forceall, into results/real/
# like any run) and timed on its own, its outputs then copied into published/real/ (where the
# workflow never writes); then REPORT.md over every published study, then
# scripts/publish_run.py (bench_targets.csv, PUBLISHED.json, published/real/README.md and
# the verdict counts in README.md). Commit
# published/real/ afterwards (.gitignore keeps data and model files out).
#   LATENTLAB_MIRROR=../shared/data bash scripts/run_real.sh [--cores N] [study ...]
# Without studies: every study of config/real.yaml.
set -euo pipefail
cd "$(dirname "$0")/.."
cores=2
if [[ "${1:-}" == "--cores" ]]; then
  cores=$2
  shift 2
fi
studies=("$@")
if [[ ${#studies[@]} -eq 0 ]]; then
  mapfile -t studies < <(python -c \
    "import yaml; print('\n'.join(yaml.safe_load(open('config/real.yaml'))['studies']))")
fi
pub=published/real
times=$pub/run_times.tsv
mkdir -p $pub
[[ -f $times ]] || printf 'study\tstart\tend\twall_seconds\tcores\tcommand\tnote\n' >"$times"
for s in "${studies[@]}"; do
  cmd="snakemake --cores $cores --configfile=config/real.yaml --forceall $s"
  start=$(date -u +%FT%TZ)
  t0=$(date +%s)
  $cmd
  t1=$(date +%s)
  load=$(cut -d' ' -f3 /proc/loadavg)
  cpu=$(python -c "from latentlab.bench_targets import collect
print(round(collect('benchmarks/real/$s').iloc[-1].cpu_seconds / 60, 1))")
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$s" "$start" "$(date -u +%FT%TZ)" $((t1 - t0)) \
    "$cores" "$cmd" "15-min load average at the end: $load; the jobs' CPU time adds up to $cpu min" \
    >>"$times"
  python scripts/publish_run.py --copy-from results/real "$s"
done
# the report over every published study (re-run now or committed): the CLI, not the report
# rule, which would rebuild the other studies' intermediate files first
python -m latentlab claims report --run real --out $pub/REPORT.md \
  --claims $pub/*/claims.csv --figures $pub/*/*.png \
  --summaries $pub/data/*/summary.json
python scripts/publish_run.py --run-dir $pub
