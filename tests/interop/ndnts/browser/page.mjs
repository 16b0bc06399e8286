// A web page's NDNts application, for tests/interop/test_ndnts.py: bundled with esbuild and
// loaded in headless Chromium, it connects to ndnlabd with NDNts's WsTransport (the browser's
// own WebSocket), fetches ?name= (version found by RDR metadata) and posts the result to the
// page's server at /result: "OK <bytes> <sha256 hex>" or "ERROR <message>".
import { Name } from "@ndn/packet";
import { retrieveMetadata } from "@ndn/rdr";
import { fetch } from "@ndn/segmented-object";
import { WsTransport } from "@ndn/ws-transport";

async function main() {
  const query = new URLSearchParams(location.search);
  const face = await WsTransport.createFace({}, query.get("ws"));
  try {
    const metadata = await retrieveMetadata(new Name(query.get("name")));
    const payload = await fetch(metadata.name, { retxLimit: 10 });
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", payload));
    return `OK ${payload.length} ${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  } finally {
    face.close();
  }
}

function report(result) {
  return globalThis.fetch("/result", { method: "POST", body: result });
}

main().then(report, (err) => report(`ERROR ${err}`));
