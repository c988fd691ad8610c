/**
 * @module
 * System service throughput: GetService round trips per second over Connect JSON, Connect
 * binary and gRPC on the simulated host, each beside a minimal hand-written grpc-js server
 * (proto-loader, csi-proxy's proto, one `Map` lookup) measured in the same run; and Connect JSON
 * through the generated decorated routes class (`SystemRoutes` on a `RestRouter`) instead of
 * `connectRoutes`.
 *
 * The servers run in a child process and the clients here, so that client and server each get
 * a core of a 2-core machine instead of sharing one event loop. Every target gets the same
 * client style: `node:http` with keep-alive for Connect, a grpc-js client for gRPC, 32 calls in
 * flight, a fixed time per round, rounds interleaved (ours, baseline, ours, …) and the median
 * kept, so that drift in machine load hits both sides alike.
 *
 * `npx tsx bench/system.ts` runs it alone; `npm run bench -- system` through the runner.
 */
import { type ChildProcess, fork } from 'node:child_process';
import type { Server } from 'node:http';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { type BenchResult, median, printResults, result, round } from './results.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CSI_PROXY_PROTO = fileURLToPath(new URL('../schemas/system/v1alpha1/system.proto', import.meta.url));
const CONCURRENCY = 32;
const ROUND_MS = Number(process.env.LOOM_BENCH_SYSTEM_ROUND_MS ?? 1_500);
const ROUNDS = Number(process.env.LOOM_BENCH_SYSTEM_ROUNDS ?? 5);
const WARMUP_CALLS = 2_000;

interface Ports {
  readonly connect: number;
  /** The same Connect routes through the decorator runtime (the generated `SystemRoutes`). */
  readonly decorated: number;
  readonly grpc: number;
  readonly baseline: number;
}

type Call = () => Promise<void>;

/** Runs the System benchmark; see the module documentation. */
export async function benchSystem(onProgress: (line: string) => void = console.log): Promise<BenchResult[]> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, LOOM_BENCH_SYSTEM_SERVER: '1' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const clients: grpc.Client[] = [];
  try {
    const ports = await serverPorts(child);
    const System = loadSystemClientConstructor();
    const ours = new System(`127.0.0.1:${ports.grpc}`, grpc.credentials.createInsecure());
    const baseline = new System(`127.0.0.1:${ports.baseline}`, grpc.credentials.createInsecure());
    clients.push(ours, baseline);

    const targets: Record<string, Call> = {
      connect_json: connectCall(agent, ports.connect, 'application/json', Buffer.from('{"name":"db"}')),
      connect_binary: connectCall(agent, ports.connect, 'application/proto', Buffer.from([0x0a, 0x02, 0x64, 0x62])), // field 1 = "db"
      connect_json_decorated: connectCall(agent, ports.decorated, 'application/json', Buffer.from('{"name":"db"}')),
      grpc: grpcCall(ours),
      baseline: grpcCall(baseline),
    };
    for (const [name, call] of Object.entries(targets)) {
      for (let i = 0; i < WARMUP_CALLS; i += CONCURRENCY) await Promise.all(Array.from({ length: CONCURRENCY }, call));
      onProgress(`  ${name}: warmed up`);
    }
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, call] of Object.entries(targets)) {
        const rate = await throughput(call);
        samples[name]!.push(rate);
        onProgress(`  round ${r + 1}/${ROUNDS} ${name}: ${round(rate)} calls/s`);
      }
    }
    const base = median(samples.baseline!);
    return [
      result('system.connect_json_vs_grpc_baseline', median(samples.connect_json!), base, 'req/s'),
      result('system.connect_binary_vs_grpc_baseline', median(samples.connect_binary!), base, 'req/s'),
      result('system.grpc_vs_grpc_baseline', median(samples.grpc!), base, 'req/s'),
      result('system.connect_json_decorated_vs_grpc_baseline', median(samples.connect_json_decorated!), base, 'req/s'),
    ];
  } finally {
    for (const c of clients) c.close();
    agent.destroy();
    child.kill();
  }
}

/** Calls in flight kept at {@link CONCURRENCY} for {@link ROUND_MS}; completed calls per second. */
async function throughput(call: Call): Promise<number> {
  let completed = 0;
  const started = performance.now();
  const end = started + ROUND_MS;
  const worker = async (): Promise<void> => {
    while (performance.now() < end) {
      await call();
      completed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return completed / ((performance.now() - started) / 1000);
}

function connectCall(agent: Agent, port: number, contentType: string, body: Buffer): Call {
  const expected = contentType === 'application/json' ? '{"displayName":"Database","startType":"AUTOMATIC","status":"RUNNING"}' : undefined;
  let checked = false;
  return () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1alpha1.System/GetService',
          agent,
          headers: { 'content-type': contentType, 'content-length': body.length, 'connect-protocol-version': '1' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            // A benchmark of error responses would be worthless: check the first answer fully, every status.
            if (res.statusCode !== 200)
              return reject(new Error(`GetService answered ${res.statusCode}: ${Buffer.concat(chunks).toString()}`));
            if (!checked && expected !== undefined && Buffer.concat(chunks).toString() !== expected) {
              return reject(new Error(`unexpected GetService answer ${Buffer.concat(chunks).toString()}`));
            }
            checked = true;
            resolve();
          });
        },
      );
      req.on('error', reject);
      req.end(body);
    });
}

function grpcCall(client: grpc.Client): Call {
  const method = (
    client as unknown as Record<string, (req: object, cb: (e: grpc.ServiceError | null, r?: { displayName?: string }) => void) => void>
  ).GetService!.bind(client);
  return () =>
    new Promise<void>((resolve, reject) => {
      method({ name: 'db' }, (error, response) => {
        if (error) reject(error);
        else if (response?.displayName !== 'Database') reject(new Error(`unexpected GetService answer ${JSON.stringify(response)}`));
        else resolve();
      });
    });
}

function loadSystemClientConstructor(): grpc.ServiceClientConstructor {
  const definition = protoLoader.loadSync(CSI_PROXY_PROTO, { keepCase: false, enums: String, defaults: true });
  return (grpc.loadPackageDefinition(definition) as unknown as { v1alpha1: { System: grpc.ServiceClientConstructor } }).v1alpha1.System;
}

function serverPorts(child: ChildProcess): Promise<Ports> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ports));
    child.once('exit', (code) => reject(new Error(`the benchmark server exited early with code ${code}`)));
    child.once('error', reject);
  });
}

/** The child process: Loom's System service on the simulated host, and the hand-written baseline. */
async function serve(): Promise<void> {
  const [
    { Hono },
    { createAdaptorServer },
    { SimulatedHost },
    { SystemHandler },
    { serveSystemGrpc, systemConnectRoutes },
    { SystemRoutes },
    { createRestRouter },
  ] = await Promise.all([
    import('hono'),
    import('@hono/node-server'),
    import('../runtime/system/simulated/simulated-host.js'),
    import('../runtime/system/system-handler.js'),
    import('../runtime/system/serve.js'),
    import('../generated/system/v1alpha1/system.server.js'),
    import('../runtime/rest/index.js'),
  ]);
  const handler = new SystemHandler(new SimulatedHost());
  const app = new Hono();
  app.route('/', systemConnectRoutes(handler));
  const listen = async (fetch: (request: Request) => Response | Promise<Response>): Promise<number> => {
    const http = createAdaptorServer({ fetch }) as Server;
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return (http.address() as AddressInfo).port;
  };
  const connect = await listen(app.fetch);
  const decorated = await listen(createRestRouter().register(new SystemRoutes(handler)).app().fetch);
  const grpcHandle = await serveSystemGrpc(handler, { grpcPort: 0 });
  const baseline = await serveBaseline();
  process.send!({ connect, decorated, grpc: grpcHandle.grpcPort!, baseline } satisfies Ports);
  process.on('disconnect', () => process.exit(0));
}

/** The minimal hand-written grpc-js server: proto-loader, one Map lookup, callback API. */
async function serveBaseline(): Promise<number> {
  const definition = protoLoader.loadSync(CSI_PROXY_PROTO, { keepCase: false, enums: String, defaults: true });
  const System = (grpc.loadPackageDefinition(definition) as unknown as { v1alpha1: { System: grpc.ServiceClientConstructor } }).v1alpha1
    .System;
  const services = new Map([['db', { displayName: 'Database', startType: 'AUTOMATIC', status: 'RUNNING' }]]);
  const server = new grpc.Server();
  server.addService(System.service, {
    GetService(call: grpc.ServerUnaryCall<{ name: string }, unknown>, callback: grpc.sendUnaryData<unknown>) {
      const found = services.get(call.request.name);
      if (found) callback(null, found);
      else callback({ code: grpc.status.NOT_FOUND, details: `service ${call.request.name} not found` });
    },
  });
  return new Promise((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => (error ? reject(error) : resolve(port))),
  );
}

if (process.env.LOOM_BENCH_SYSTEM_SERVER === '1') {
  await serve();
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await benchSystem();
  console.log('');
  printResults(results);
}
