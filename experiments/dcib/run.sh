#!/bin/bash
# DCIB's premise first (premise/run: the paper's Figs. 2-4, the baseline section IV is measured
# against), then every section IV campaign (ndnlab's earlier ones with 4 MB sockets, then
# iv-premise/: IV-A to IV-D again on the premise's Linux-like hosts), the figures and the paper
# table, and at the end the paper's claims judged two-sided: claims.py (the earlier campaigns:
# docs/results/dcib-verdicts.md, docs/results/dcib/verdicts.json) and iv-premise/claims.py (the
# paper's DCIB and +I side by side on the premise's hosts: docs/results/dcib-iv-verdicts.md,
# docs/results/dcib/iv-verdicts.json), printed last (experiments/dcib/README.md).
#   experiments/dcib/run.sh [campaign options, e.g. --workers N]
# ndnlab-sim comes from $NDNLAB_SIM, PATH or build/ns3/runner (configure with
# -DNDNLAB_WITH_NS3=ON). Finished runs are kept in experiments/dcib/results/ (iv-premise/results/)
# and not rerun.
# With --dry-run only the campaign commands are printed. figures/ and paper-table.md are
# rewritten only after every campaign succeeded and the stores hold a successful result of each
# run.
#
# Exit status: 0 done (or --help), 1 a campaign failed or runs are missing (figures/ and
# paper-table.md are left as they were), 2 bad arguments (then nothing runs), spec or simulator,
# 130 (129, 143) a campaign was interrupted by Ctrl-C (SIGHUP, SIGTERM): the campaigns after it
# do not start, and the finished runs stay in the stores, so running run.sh again resumes.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
campaigns=(artificial-loss artificial-loss-noncoop artificial-loss-coop no-loss no-loss-8
           no-loss-bbr no-loss-bbr-32 limited-buffer fct)
# section IV on the premise's hosts, in the order of issue 31's priorities
premise_iv=(artificial-loss no-loss mtu1500 limited-buffer limited-buffer-no-loss fct)
specs=()
for c in "${campaigns[@]}"; do specs+=("$here/$c.toml"); done
for c in "${premise_iv[@]}"; do specs+=("$here/iv-premise/$c.toml"); done

for arg in "$@"; do
  case "$arg" in
    -h|--help)
      sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"
      echo
      echo "campaign options (ndnlab campaign):"
      python3 "$here/../campaign-check" help
      exit 0
      ;;
  esac
done
dry_run=$(python3 "$here/../campaign-check" options run.sh "$@") || exit

status=0
rc=0
"$here/premise/run" "$@" || rc=$?
case $rc in
  129|130|143) echo "run.sh: the premise was interrupted (status $rc); section IV does not run" >&2; exit $rc ;;
  0) ;;
  *) echo "run.sh: the premise (premise/run) exited with status $rc" >&2; status=$rc ;;
esac
for spec in "${specs[@]}"; do
  rc=0
  python3 -m ndnlab campaign "$spec" "$@" || rc=$?
  case $rc in
    129|130|143) # interrupted: stop here, as a Ctrl-C means the whole job
      echo "run.sh: campaign ${spec#"$here"/} interrupted (status $rc); the remaining" \
           "campaigns do not run, figures/ and paper-table.md not regenerated" >&2
      exit $rc
      ;;
  esac
  if [ $rc -ne 0 ]; then
    echo "run.sh: campaign ${spec#"$here"/} exited with status $rc" >&2
    if [ $rc -gt $status ]; then status=$rc; fi
  fi
done
if [ -n "$dry_run" ]; then exit $status; fi # --dry-run: the commands only
if [ $status -ne 0 ]; then
  echo "run.sh: figures/ and paper-table.md not regenerated (a campaign failed)" >&2
  exit $status
fi
if ! python3 "$here/../campaign-check" complete "${specs[@]}"; then
  echo "run.sh: figures/ and paper-table.md not regenerated (runs missing, listed above; rerun" \
       "run.sh, or draw from what is there: python3 -m ndnlab.plots.dcib $here -o DIR)" >&2
  exit 1
fi
python3 -m ndnlab.plots.dcib "$here" -o "$here/figures" --table "$here/paper-table.md"
mkdir -p "$root/docs/results/dcib"
rc=0
python3 "$here/claims.py" --out "$root/docs/results/dcib-verdicts.md" \
  --json "$root/docs/results/dcib/verdicts.json" > /dev/null || rc=$?
python3 "$here/iv-premise/claims.py" --out "$root/docs/results/dcib-iv-verdicts.md" \
  --json "$root/docs/results/dcib/iv-verdicts.json" > /dev/null || rc=$?
cat "$root/docs/results/dcib-verdicts.md"
echo
cat "$root/docs/results/dcib-iv-verdicts.md"
exit $rc
