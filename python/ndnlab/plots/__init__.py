"""Figures and tables of one experiment each, run as modules: `python3 -m ndnlab.plots.dcib`
(experiments/dcib). The generic plot command is ndnlab.plot."""
