"""Emulation with real daemons (`ndnlab emu`, issue 27): `net` builds the network namespaces,
veth links and kernel shaping a run needs (docs/decisions/0005-emulation-engine.md)."""
