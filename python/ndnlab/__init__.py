"""ndnlab experiment package: campaign specs, a Dask campaign runner, a result store, metrics,
plots and reports with the published papers' numbers beside ours.

The command-line tools are `ndnlab campaign`, `ndnlab plot` and `ndnlab report` (executables
`ndnlab-campaign`, `ndnlab-plot`, `ndnlab-report`); see docs/campaigns.md.
"""

__version__ = "0.1.0"


def load_results(source, include_failed=False):
    """Runs of a campaign spec (path to SPEC.toml) or of a whole result store (a directory) as a
    pandas DataFrame, one row per run: parameters and flattened metrics as columns."""
    from ndnlab.store import open_source

    store, spec = open_source(source)
    return store.load(spec=spec, include_failed=include_failed)
