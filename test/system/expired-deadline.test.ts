/**
 * A call whose deadline has passed before it begins (`Connect-Timeout-Ms: 0`, `grpc-timeout: 0m`)
 * ends with `deadline_exceeded` and changes nothing on the host: its caller has given up, so a
 * StartService or StopService must not go on to start or stop the service behind its back.
 */
import { connect as http2Connect } from 'node:http2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedHost } from '../../runtime/system/simulated/simulated-host.js';
import { RecordingHost } from './support/recording-host.js';
import { type RunningSystem, startSystem } from './support/system-server.js';

let host: RecordingHost;
let system: RunningSystem;
beforeAll(async () => {
  host = new RecordingHost(new SimulatedHost({ startDelayMs: 1, stopDelayMs: 1 }));
  system = await startSystem(host);
});
afterAll(() => system.close());

/** A gRPC call by hand, as a client with an already-expired deadline sends it; resolves with `grpc-status`. */
function rawGrpc(address: string, method: string, message: Uint8Array, timeout: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(`http://${address}`);
    session.on('error', reject);
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt32BE(message.length, 1);
    frame.set(message, 5);
    const stream = session.request({
      ':method': 'POST',
      ':path': `/v1alpha1.System/${method}`,
      'content-type': 'application/grpc',
      te: 'trailers',
      'grpc-timeout': timeout,
    });
    let status: string | undefined;
    const take = (headers: Record<string, unknown>) => {
      if (headers['grpc-status'] !== undefined) status = String(headers['grpc-status']);
    };
    stream.on('response', take);
    stream.on('trailers', take);
    stream.on('close', () => {
      session.close();
      resolve(status);
    });
    stream.on('error', reject);
    stream.resume();
    stream.end(frame);
  });
}

/** Lets any operation the call might have begun run to its end. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('a call whose deadline passed before it began', () => {
  it('over Connect: 504 deadline_exceeded, and the service is not stopped', async () => {
    const res = await fetch(`${system.baseUrl}/v1alpha1.System/StopService`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'connect-timeout-ms': '0' },
      body: JSON.stringify({ name: 'cache', force: true }),
    });
    expect(res.status).toBe(504);
    expect(((await res.json()) as { code: string }).code).toBe('deadline_exceeded');
    await settle();
    expect(host.log).toEqual([]);
    // The same call with time to spare does stop it.
    const start = await fetch(`${system.baseUrl}/v1alpha1.System/StartService`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'connect-timeout-ms': '5000' },
      body: '{"name":"cache"}',
    });
    expect(start.status).toBe(200);
    expect(host.log).toEqual([{ op: 'start', name: 'cache', outcome: 'ok' }]);
  });

  it('over gRPC: DEADLINE_EXCEEDED, and the service is not started', async () => {
    host.log.length = 0;
    // StartServiceRequest { name: "worker" }: field 1, length-delimited.
    const request = Uint8Array.from([0x0a, 6, ...Buffer.from('worker')]);
    for (const timeout of ['0m', '1n']) {
      expect(await rawGrpc(system.grpcAddress, 'StartService', request, timeout)).toBe('4');
    }
    await settle();
    expect(host.log).toEqual([]);
  });
});
