// usage: node consumer.mjs rdr|canbeprefix NAME OUT
// Fetches the segmented object NAME with NDNts and writes its bytes to OUT. The version is
// discovered the way NDNts applications do it: by RDR metadata (`NAME/32=metadata`, as
// `ndncat get-segmented` does) or by a CanBePrefix Interest for NAME (discoverVersion).
import { writeFile } from "node:fs/promises";

import { Name } from "@ndn/packet";
import { retrieveMetadata } from "@ndn/rdr";
import { discoverVersion, fetch } from "@ndn/segmented-object";

import { connect, fail, run, uri } from "./common.mjs";

const [mode, name, out] = process.argv.slice(2);
if (!["rdr", "canbeprefix"].includes(mode) || !out) {
  fail("usage: node consumer.mjs rdr|canbeprefix NAME OUT");
}

run(async () => {
  const face = await connect();
  try {
    const versioned = mode === "rdr"
      ? (await retrieveMetadata(new Name(name))).name
      : await discoverVersion(new Name(name));
    const payload = await fetch(versioned, { retxLimit: 10 });
    await writeFile(out, payload);
    process.stdout.write(`${uri(versioned)}\n`);
  } finally {
    face.close();
  }
});
