/**
 * @module
 * Who may call the System service's Connect routes when no `SYSTEM_TOKEN` is set: only this
 * machine. StartService and StopService change node state, and the HTTP port listens on every
 * interface by default (`HOST=0.0.0.0`), so without a token a call from another host is refused
 * with PERMISSION_DENIED; setting the token is how a deployment opts in to remote callers (then
 * the token check alone decides, see `bearer-token.ts`).
 *
 * The peer is the TCP peer of the connection. A reverse proxy on the same machine therefore makes
 * every caller look local: put the token on such a deployment.
 */
import { type RpcContext, RpcError } from '../rpc/index.js';

/** The message of a refused remote call: it names the setting that allows it. */
export const REMOTE_CALL_REFUSED =
  'calls from other hosts are refused while no SYSTEM_TOKEN is set; set SYSTEM_TOKEN to allow them (with "authorization: Bearer <token>")';

/**
 * An authorize hook that lets through calls from this machine only: a loopback peer, a Unix
 * socket, or a request that came without a socket at all (`app.request()`, in-process). A
 * connection whose address can no longer be read (the client hung up before the check) is
 * refused, since nothing shows it was local.
 *
 * @example
 * ```ts
 * connectRoutes(SystemServiceDescriptor, handler, { authorize: requireLocalPeer() });
 * ```
 */
export function requireLocalPeer(): (ctx: Pick<RpcContext, 'peer'>) => void {
  return function authorizeLocalPeer(ctx) {
    const peer = ctx.peer;
    if (peer === undefined || peer.unixSocket) return;
    if (peer.address !== undefined && isLoopbackAddress(peer.address)) return;
    throw new RpcError('permission_denied', REMOTE_CALL_REFUSED);
  };
}

/**
 * True for the loopback addresses: IPv4 `127.0.0.0/8`, IPv6 `::1`, and IPv4 loopback mapped into
 * IPv6 (`::ffff:127.x.x.x`, what a dual-stack listener reports for an IPv4 peer), in the textual
 * forms Node reports.
 */
export function isLoopbackAddress(address: string): boolean {
  const text = address.toLowerCase();
  if (text === '::1' || text === '0:0:0:0:0:0:0:1') return true;
  const mapped = /^(?:::|0:0:0:0:0:)ffff:(.+)$/.exec(text);
  if (mapped === null) return isIpv4Loopback(text);
  // `::ffff:127.0.0.1`, or the same address in hexadecimal (`::ffff:7f00:1`).
  const hex = /^([0-9a-f]{1,4}):[0-9a-f]{1,4}$/.exec(mapped[1]!);
  return hex ? parseInt(hex[1]!, 16) >> 8 === 127 : isIpv4Loopback(mapped[1]!);
}

/**
 * True when a listener on `host` can be reached only from this machine: a loopback address or
 * `localhost`. Every other value (`0.0.0.0`, `::`, an interface address, a host name) is taken as
 * reachable from other hosts.
 */
export function isLoopbackHost(host: string): boolean {
  const text = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return text === 'localhost' || isLoopbackAddress(text);
}

function isIpv4Loopback(text: string): boolean {
  const parts = text.split('.');
  return parts.length === 4 && parts[0] === '127' && parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255);
}
