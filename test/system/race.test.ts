/**
 * Fifty clients racing StartService and StopService over Connect JSON, Connect binary and gRPC
 * at once. Operations on one service must be applied one at a time, in an order that explains
 * every answer and the final state; the only error allowed is the documented FAILED_PRECONDITION.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { SystemServiceDescriptor } from '../../generated/system/v1alpha1/system.codec.js';
import { ServiceStatus, StartType } from '../../generated/system/v1alpha1/system.types.js';
import { createConnectClient, createGrpcClient, type RpcClient, RpcError } from '../../runtime/rpc/index.js';
import { protobufBinary } from '../../runtime/rpc/protobuf-binary.js';
import type { SimulatedHostTable } from '../../runtime/system/simulated/host-table.js';
import { SimulatedHost } from '../../runtime/system/simulated/simulated-host.js';
import { type RecordedOperation, RecordingHost } from './support/recording-host.js';
import { type RunningSystem, startSystem } from './support/system-server.js';

const { RUNNING, STOPPED } = ServiceStatus;

/** The table, plus a second dependent of db. */
const TABLE: SimulatedHostTable = {
  biosSerial: 'SIM-0001',
  services: [
    { name: 'db', displayName: 'Database', startType: StartType.AUTOMATIC, status: RUNNING, dependsOn: [] },
    { name: 'web', displayName: 'Web Server', startType: StartType.AUTOMATIC, status: RUNNING, dependsOn: ['db'] },
    { name: 'worker', displayName: 'Worker', startType: StartType.MANUAL, status: STOPPED, dependsOn: ['db'] },
  ],
};

type SystemClient = RpcClient<(typeof SystemServiceDescriptor)['methods']>;

/** A small deterministic generator, so that a failing interleaving of operations can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

let system: RunningSystem | undefined;
const grpcClients: Array<{ close(): void }> = [];
afterEach(async () => {
  for (const c of grpcClients.splice(0)) c.close();
  await system?.close();
});

async function raceSetup(): Promise<{ host: RecordingHost; clients: SystemClient[] }> {
  const host = new RecordingHost(new SimulatedHost({ table: TABLE, startDelayMs: 2, stopDelayMs: 2 }));
  system = await startSystem(host);
  const grpc = createGrpcClient(SystemServiceDescriptor, system.grpcAddress);
  grpcClients.push(grpc);
  const clients = [
    createConnectClient(SystemServiceDescriptor, { baseUrl: system.baseUrl }),
    createConnectClient(SystemServiceDescriptor, { baseUrl: system.baseUrl, binary: protobufBinary }),
    grpc,
  ];
  return { host, clients };
}

type Op = RecordedOperation['op'];

function send(client: SystemClient, op: Op, name: string): Promise<string> {
  const call = op === 'start' ? client.startService({ name }) : client.stopService({ name, force: op === 'stop --force' });
  return call.then(
    () => 'ok',
    (error: unknown) => (error instanceof RpcError ? error.code : `not an RpcError: ${String(error)}`),
  );
}

describe('50 clients racing on one service', () => {
  it.each([1, 2, 3])('are applied in a serial order that explains every answer and the final state (seed %i)', async (seed) => {
    const { host, clients } = await raceSetup();
    const next = random(seed);
    const ops: Op[] = ['start', 'stop', 'stop --force'];
    const plan = Array.from({ length: 50 }, (_, i) => ({
      client: clients[i % clients.length]!,
      op: ops[Math.floor(next() * ops.length)]!,
    }));
    const answers = await Promise.all(plan.map(({ client, op }) => send(client, op, 'db')));

    for (const answer of answers) expect(['ok', 'failed_precondition']).toContain(answer);
    expect(host.maxInFlightPerService).toBe(1);
    expect(host.log).toHaveLength(50);

    // Replay the order in which the host applied them on a model of the table.
    const model = new Map([
      ['db', RUNNING],
      ['web', RUNNING],
      ['worker', STOPPED],
    ]);
    for (const entry of host.log) {
      let expected = 'ok';
      if (entry.op === 'start') model.set('db', RUNNING);
      else if (entry.op === 'stop --force') for (const name of ['web', 'worker', 'db']) model.set(name, STOPPED);
      else if (model.get('web') === RUNNING || model.get('worker') === RUNNING) expected = 'dependents_running';
      else model.set('db', STOPPED);
      expect(entry.outcome).toBe(expected);
    }
    expect(host.statuses()).toEqual(model);
    // And the clients heard exactly what the host did.
    expect(answers.filter((a) => a === 'failed_precondition')).toHaveLength(
      host.log.filter((e) => e.outcome === 'dependents_running').length,
    );
  });
});

describe('50 clients racing across dependent services', () => {
  it.each([7, 8])('end settled, consistent, with only documented errors (seed %i)', async (seed) => {
    const { host, clients } = await raceSetup();
    const next = random(seed);
    const ops: Op[] = ['start', 'stop', 'stop --force'];
    const names = ['db', 'web', 'worker'];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        send(clients[i % clients.length]!, ops[Math.floor(next() * 3)]!, names[Math.floor(next() * 3)]!),
      ),
    );
    for (const answer of answers) expect(['ok', 'failed_precondition']).toContain(answer);
    expect(host.maxInFlightPerService).toBe(1);
    const statuses = host.statuses();
    for (const status of statuses.values()) expect([RUNNING, STOPPED]).toContain(status);
    for (const dependent of ['web', 'worker']) {
      if (statuses.get(dependent) === RUNNING) expect(statuses.get('db')).toBe(RUNNING);
    }
    // The last operation applied to each service decides its state, unless a forced stop of db
    // or a start of a dependent changed it afterwards.
    const last = new Map(host.log.filter((e) => e.outcome === 'ok').map((e) => [e.name, e]));
    const lastIndex = (pred: (e: RecordedOperation) => boolean): number => {
      for (let i = host.log.length - 1; i >= 0; i--) if (host.log[i]!.outcome === 'ok' && pred(host.log[i]!)) return i;
      return -1;
    };
    for (const dependent of ['web', 'worker']) {
      const op = last.get(dependent);
      if (op === undefined) continue;
      const dependentIndex = lastIndex((e) => e === op);
      const forcedAfter = lastIndex((e) => e.name === 'db' && e.op === 'stop --force') > dependentIndex;
      expect(statuses.get(dependent)).toBe(op.op === 'start' && !forcedAfter ? RUNNING : STOPPED);
    }
  });
});
