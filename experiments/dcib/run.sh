#!/bin/bash
# Every DCIB campaign, then the figures and the paper table (experiments/dcib/README.md).
#   experiments/dcib/run.sh [--workers N]
# ndnlab-sim comes from $NDNLAB_SIM, PATH or build/ns3/runner (configure with
# -DNDNLAB_WITH_NS3=ON). Finished runs are kept in experiments/dcib/results/ and not rerun.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
status=0
for c in artificial-loss artificial-loss-noncoop artificial-loss-coop no-loss no-loss-8 no-loss-bbr no-loss-bbr-32 limited-buffer fct; do
  python3 -m ndnlab campaign "$here/$c.toml" "$@" || status=1
done
python3 -m ndnlab.plots.dcib "$here" -o "$here/figures" --table "$here/paper-table.md"
exit $status
