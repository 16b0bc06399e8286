// usage: node producer.mjs NAME FILE
// Serves FILE under NAME/<version>/<segment> with NDNts, answering both RDR metadata
// discovery (`NAME/32=metadata`) and CanBePrefix discovery, as `ndncat put-segmented` does.
// The prefix is registered with rib/register (signed command Interests, NDNts's defaults)
// under /localhost/nfd: the forwarder is on this machine. (NDNts would pick /localhop/nfd
// for a WebSocket or UDP face, which NFD and ndnlabd serve only with localhop security set up.)
// Prints "ready NAME/<version>" once serving; runs until killed.
import { enableNfdPrefixReg, localhostPrefix } from "@ndn/nfdmgmt";
import { Name } from "@ndn/packet";
import { Metadata, serveMetadata } from "@ndn/rdr";
import { FileChunkSource, serveVersioned } from "@ndn/segmented-object";

import { connect, fail, run, uri } from "./common.mjs";

const [name, file] = process.argv.slice(2);
if (!file) {
  fail("usage: node producer.mjs NAME FILE");
}

run(async () => {
  const face = await connect();
  enableNfdPrefixReg(face, { prefix: localhostPrefix });
  const server = serveVersioned(new Name(name), new FileChunkSource(file));
  serveMetadata(new Metadata(server.prefix), { prefix: new Name(name), announcement: false });
  process.stdout.write(`ready ${uri(server.prefix)}\n`);
});
