#!/usr/bin/env python3
"""python-ndn (appv2) producer: registers PREFIX through the forwarder and serves FILE as
versioned segments, answering RDR metadata discovery (`PREFIX/32=metadata`).

Usage: pyndn_producer.py PREFIX FILE [SEGMENT_SIZE]
Connects with NDN_CLIENT_TRANSPORT (e.g. unix:///tmp/x.sock). Prints "ready" once registered.
"""
import sys

from ndn import appv2, encoding as enc, security as sec

prefix, path = sys.argv[1], sys.argv[2]
seg_size = int(sys.argv[3]) if len(sys.argv) > 3 else 4400
payload = open(path, "rb").read()
segments = [payload[i:i + seg_size] for i in range(0, len(payload), seg_size)] or [b""]
version = 1700000000000
versioned = enc.Name.from_str(prefix) + [enc.Component.from_version(version)]
final = enc.Component.from_segment(len(segments) - 1)
signer = sec.DigestSha256Signer()
app = appv2.NDNApp()


@app.route(prefix)
def on_interest(name, _param, reply, _context):
    if enc.Component.get_type(name[-1]) == enc.Component.TYPE_KEYWORD and \
            bytes(enc.Component.get_value(name[-1])) == b"metadata":
        meta_name = name + [enc.Component.from_version(version), enc.Component.from_segment(0)]
        reply(app.make_data(meta_name, enc.Name.to_bytes(versioned), signer, freshness_period=10))
        return
    if len(name) == len(versioned) + 1 and enc.Component.get_type(name[-1]) == enc.Component.TYPE_SEGMENT:
        seg = enc.Component.to_number(name[-1])
        if seg < len(segments):
            reply(app.make_data(name, segments[seg], signer, freshness_period=10000,
                                final_block_id=final))


async def announce():
    print("ready", flush=True)


if __name__ == "__main__":
    app.run_forever(after_start=announce())
