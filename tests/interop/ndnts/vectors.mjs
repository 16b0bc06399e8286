// usage: node vectors.mjs < VECTORS.json
// Decodes the shared wire vectors (tests/vectors/, format in its README) with NDNts's own
// decoders, for tests/interop/test_ndnts_vectors.py. Reads a JSON list of {file, kind, hex} on
// stdin and prints one JSON object per vector and line: {file, KEY: VALUE, ...} with the README's
// keys and value forms for what NDNts exposes, or {file, error} when NDNts rejects the bytes.
// NDNts gives an absent InterestLifetime or HopLimit its default (4000 ms, 255), and checks
// the ParametersSha256DigestComponent only when ApplicationParameters are present.
import { createHash } from "node:crypto";
import { text } from "node:stream/consumers";

import { AltUri } from "@ndn/naming-convention2";
import { Data, Interest, LLVerify, Name } from "@ndn/packet";
import { Decoder } from "@ndn/tlv";

import { fail, run, uri } from "./common.mjs";

function hex(bytes) {
  return Buffer.from(bytes).toString("hex");
}

function optional(value, format = String) {
  return value === undefined ? "none" : format(value);
}

function keyLocator(kl) {
  if (kl?.name) {
    return uri(kl.name);
  }
  return optional(kl?.digest, (digest) => `keydigest:${hex(digest)}`);
}

/**
 * The signature fields of a Data or signed Interest. The signed portion is the one NDNts hands to
 * a low-level verifier (LLVerify), which for an Interest it does only once the params digest is
 * correct (else the vector is reported as rejected).
 */
async function signature(pkt) {
  const { sigInfo, sigValue } = pkt;
  let signedPortion;
  await pkt[LLVerify.OP](async (input) => {
    signedPortion = input;
  });
  return {
    sig_type: String(sigInfo.type),
    key_locator: keyLocator(sigInfo.keyLocator),
    sig_nonce: optional(sigInfo.nonce, hex),
    sig_time: optional(sigInfo.time),
    sig_seq: optional(sigInfo.seqNum),
    sig_value: hex(sigValue),
    signed_portion_sha256: createHash("sha256").update(signedPortion).digest("hex"),
  };
}

async function interest(wire) {
  const i = Decoder.decode(wire, Interest);
  let digestValid = true;
  try {
    await i.validateParamsDigest();
  } catch {
    digestValid = false;
  }
  return {
    name: uri(i.name),
    can_be_prefix: String(i.canBePrefix),
    must_be_fresh: String(i.mustBeFresh),
    nonce: optional(i.nonce, (n) => `0x${n.toString(16).padStart(8, "0")}`),
    lifetime_ms: String(i.lifetime),
    hop_limit: String(i.hopLimit),
    forwarding_hint: (i.fwHint?.delegations ?? []).map(uri).join(",") || "none",
    app_params: optional(i.appParameters, hex),
    params_digest_valid: String(digestValid),
    ...(i.sigInfo && await signature(i)),
  };
}

async function data(wire) {
  const d = Decoder.decode(wire, Data);
  return {
    name: uri(d.name),
    content_type: String(d.contentType),
    freshness_ms: String(d.freshnessPeriod),
    final_block_id: optional(d.finalBlockId, AltUri.ofComponent),
    content: hex(d.content),
    ...await signature(d),
    implicit_digest: hex(await d.computeImplicitDigest()),
  };
}

function name(wire) {
  const n = Decoder.decode(wire, Name);
  return {
    name: uri(n),
    components: String(n.length),
    component_types: n.comps.map((c) => c.type).join(","),
  };
}

const DECODERS = { interest, data, name };

run(async () => {
  for (const { file, kind, hex: wireHex } of JSON.parse(await text(process.stdin))) {
    const decode = DECODERS[kind] ?? fail(`${file}: unknown kind ${kind}`);
    let fields;
    try {
      fields = await decode(new Uint8Array(Buffer.from(wireHex, "hex")));
    } catch (err) {
      fields = { error: err.message };
    }
    process.stdout.write(`${JSON.stringify({ file, ...fields })}\n`);
  }
});
