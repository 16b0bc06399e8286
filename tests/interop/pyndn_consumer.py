#!/usr/bin/env python3
"""python-ndn (appv2) consumer: discovers the version of PREFIX by RDR metadata, then fetches
every segment (a window of 16 in flight) and writes the object to OUT.

Usage: pyndn_consumer.py PREFIX OUT
"""
import asyncio
import sys

from ndn import appv2, encoding as enc, types

prefix, out = sys.argv[1], sys.argv[2]
app = appv2.NDNApp()


async def express(name, **kw):
    for attempt in range(10):
        try:
            return await app.express(name, appv2.pass_all, lifetime=2000, **kw)
        except types.InterestTimeout:
            continue
    raise RuntimeError(f"no answer for {enc.Name.to_str(name)}")


async def fetch():
    try:
        meta_name = enc.Name.from_str(prefix) + [enc.Component.from_str("32=metadata")]
        _, content, _ = await express(meta_name, can_be_prefix=True, must_be_fresh=True)
        versioned = enc.Name.from_bytes(content)
        # Segment 0 tells the final block.
        name0, seg0, ctx = await express(versioned + [enc.Component.from_segment(0)])
        final = enc.Component.to_number(ctx["meta_info"].final_block_id)
        parts = {0: bytes(seg0)}
        pending = list(range(1, final + 1))
        while pending:
            batch, pending = pending[:16], pending[16:]
            results = await asyncio.gather(*(express(versioned + [enc.Component.from_segment(s)])
                                             for s in batch))
            for s, (_, c, _) in zip(batch, results):
                parts[s] = bytes(c)
        with open(out, "wb") as f:
            for s in range(final + 1):
                f.write(parts[s])
        print(f"fetched {final + 1} segments", flush=True)
    finally:
        app.shutdown()


if __name__ == "__main__":
    app.run_forever(after_start=fetch())
