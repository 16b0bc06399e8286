// usage: node mgmt.mjs PREFIX
// Drives ndnlabd's NFD management with NDNts's @ndn/nfdmgmt: its signed control commands and
// its status dataset decoders. Prints one JSON object on stdout (bigints as numbers) that
// tests/interop/test_ndnts.py checks against `ndnlab ctl`:
//   replies: {label: {code, text, body}} for each command below (body = ControlParameters)
//   datasets: status/general, faces/list, faces/channels, cs/info, strategy-choice/list,
//   rib/list, decoded by NDNts, and faces/query with NDNts's FaceQueryFilter encodings
//   (queries: {label: [faceId...]}).
// PREFIX is the name under which the commands register a route and set a strategy.
import { ChannelStatus, ControlParameters, CsInfo, FaceQuery, FaceStatus, GeneralStatus, invoke,
  list, RibEntry, StrategyChoice } from "@ndn/nfdmgmt";
import { Name } from "@ndn/packet";

import { connect, fail, run, uri } from "./common.mjs";

const [prefix] = process.argv.slice(2);
if (!prefix) {
  fail("usage: node mgmt.mjs PREFIX");
}

async function command(verb, params) {
  const response = await invoke(verb, params);
  let body = null;
  if (response.statusCode === 200) {
    const p = ControlParameters.decodeFromResponseBody(response);
    body = { name: uri(p.name), faceId: p.faceId, origin: p.origin, cost: p.cost,
      flags: p.flags, strategy: uri(p.strategy) };
  }
  return { code: response.statusCode, text: response.statusText, body };
}

run(async () => {
  const face = await connect();
  try {
    const replies = {
      register: await command("rib/register", { name: new Name(`${prefix}/route`), cost: 17 }),
      strategy: await command("strategy-choice/set", {
        name: new Name(`${prefix}/multicast`),
        strategy: new Name("/localhost/nfd/strategy/multicast"),
      }),
      unknownStrategy: await command("strategy-choice/set", {
        name: new Name(`${prefix}/nowhere`), strategy: new Name("/localhost/nfd/strategy/no-such"),
      }),
      missingName: await command("rib/register", { cost: 1 }),
      unregisterMissing: await command("rib/unregister", { name: new Name(`${prefix}/never`) }),
    };
    const datasets = {
      general: (await list(GeneralStatus))[0],
      faces: await list(FaceStatus),
      channels: await list(ChannelStatus),
      cs: (await list(CsInfo))[0],
      strategies: (await list(StrategyChoice)).map((s) => ({ name: uri(s.name),
        strategy: uri(s.strategy) })),
      rib: (await list(RibEntry)).map((e) => ({ name: uri(e.name), routes: e.route })),
    };
    const ids = async (filter) => (await list(FaceQuery(filter))).map((f) => f.faceId);
    const mine = replies.register.body.faceId;
    const queries = {
      udp4: await ids({ uriScheme: "udp4" }),
      mine: await ids({ faceId: mine }),
      localOnDemand: await ids({ faceScope: 1, facePersistency: 1 }),
      byUri: await ids({ uri: datasets.faces.find((f) => f.faceId === mine).uri }),
      none: await ids({ uri: "udp4://192.0.2.1:1" }),
    };
    process.stdout.write(JSON.stringify({ replies, datasets, queries },
      (key, value) => (typeof value === "bigint" ? Number(value) : value)) + "\n");
  } finally {
    face.close();
  }
});
