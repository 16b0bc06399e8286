// What the NDNts client scripts of this folder share: the connection to ndnlabd and the way
// they fail. Each script is run by tests/interop/test_ndnts.py with $NDNLAB_SOCKET set.
import { AltUri } from "@ndn/naming-convention2";
import { TcpTransport, UdpTransport, UnixTransport } from "@ndn/node-transport";
import { WsTransport } from "@ndn/ws-transport";

/**
 * Connects the default NDNts forwarder to ndnlabd, with a route for "/": over $NDNTS_UPLINK
 * when set (`tcp:HOST:PORT`, `udp:HOST:PORT` or `ws:HOST:PORT`, the WebSocket transport of
 * NDNts in a browser), else over the Unix socket $NDNLAB_SOCKET.
 */
export async function connect() {
  const uplink = process.env.NDNTS_UPLINK;
  if (uplink) {
    const [, scheme, host, port] = /^(tcp|udp|ws):(.+):(\d+)$/.exec(uplink) ??
      fail(`NDNTS_UPLINK=${uplink}: expected tcp:HOST:PORT, udp:HOST:PORT or ws:HOST:PORT`);
    if (scheme === "ws") {
      return WsTransport.createFace({}, `ws://${host}:${port}`);
    }
    const transport = scheme === "tcp" ? TcpTransport : UdpTransport;
    return transport.createFace({}, host, Number(port));
  }
  const path = process.env.NDNLAB_SOCKET;
  if (!path) {
    fail("neither NDNTS_UPLINK nor NDNLAB_SOCKET is set");
  }
  return UnixTransport.createFace({}, path);
}

/** Prints "ndnts: MESSAGE" on stderr and exits 1. */
export function fail(message) {
  process.stderr.write(`ndnts: ${message}\n`);
  process.exit(1);
}

/** Runs `main` and turns any error into fail(), so a test sees one line and exit 1. */
export function run(main) {
  main().catch((err) => fail(err?.stack ?? String(err)));
}

/** NAME as ndnlab and NFD print it: /a/b/v=1/seg=0 (NDNts's toString() gives /8=a/8=b/54=...). */
export function uri(name) {
  return name === undefined ? undefined : AltUri.ofName(name);
}
