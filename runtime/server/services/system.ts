/**
 * @module
 * The System service module: picks the host adapter (`HOST_ADAPTER`), mounts the Connect
 * routes (`POST /v1alpha1.System/<Method>`) on the shared app and serves the same handler
 * over gRPC on `GRPC_PORT` (and `GRPC_SOCKET`), with the `SYSTEM_TOKEN` check on both. Without
 * a token the Connect routes answer callers on this machine only (gRPC listens on loopback).
 */
import { join } from 'node:path';
import * as grpcJs from '@grpc/grpc-js';
import { createHostAdapter } from '../../system/adapter-factory.js';
import { type HostAdapter, isHostError } from '../../system/host-adapter.js';
import { isLoopbackHost } from '../../system/peer-access.js';
import { GrpcListenError, type SystemGrpcHandle, serveSystemGrpc, systemConnectRoutes } from '../../system/serve.js';
import { SystemHandler } from '../../system/system-handler.js';
import { createGrpcHealth } from '../grpc-health.js';
import type { ReadinessCheck } from '../health.js';
import { type ServiceFactory, StartupError } from '../service-module.js';

/** A name no host has: asking for it proves the service manager answers (with "not found"). */
const PROBE_SERVICE = 'loom-readiness-probe';

/** A service every host of the kind has, for the banner's example calls. */
const EXAMPLE_SERVICE: Readonly<Record<HostAdapter['kind'], string>> = {
  simulated: 'db',
  systemd: 'systemd-journald',
  windows: 'Spooler',
};

/**
 * Opens the System service.
 *
 * @example
 * ```ts
 * const system = await createSystemModule({ config, logger, rootDir, origin });
 * system.mount(app);                 // Connect routes
 * await system.listen?.();           // gRPC on GRPC_PORT
 * ```
 */
export const createSystemModule: ServiceFactory = async ({ config, logger, rootDir }) => {
  let host: HostAdapter;
  try {
    host = await createHostAdapter({
      env: {
        HOST_ADAPTER: config.hostAdapter,
        SIMULATED_HOST_FILE: config.simulatedHostFile,
        SIMULATED_HOST_STATE: config.simulatedHostState,
      },
    });
  } catch (error) {
    throw new StartupError(`cannot open the ${config.hostAdapter} host adapter: ${error instanceof Error ? error.message : String(error)}`);
  }
  logger.info({ adapter: host.kind, requested: config.hostAdapter }, 'host adapter ready');
  if (config.systemToken === undefined && !isLoopbackHost(config.host)) {
    // HOST listens beyond this machine, but without a token the Connect routes refuse such callers:
    // say so once, so that an operator who sees PERMISSION_DENIED knows which setting to change.
    logger.info(
      { host: config.host },
      'System Connect calls from other hosts are refused because SYSTEM_TOKEN is not set; set SYSTEM_TOKEN to allow them',
    );
  }
  // grpc-js writes its own diagnostics to stderr; route them into the structured log instead,
  // where the operator's log pipeline (and LOG_LEVEL) applies.
  const grpcLog = logger.child({ component: 'grpc-js' });
  grpcJs.setLogger({ error: (...args: unknown[]) => grpcLog.debug(args.map(String).join(' ')) });
  const handler = new SystemHandler(host);
  const onError = (error: unknown) => logger.error({ err: error }, 'unexpected error in the System service');
  let grpc: SystemGrpcHandle | undefined;
  // Aborted when shutdown begins: gRPC health answers NOT_SERVING from then on.
  const draining = new AbortController();

  const hostAdapterCheck: ReadinessCheck = {
    name: 'hostAdapter',
    async check(signal) {
      try {
        await host.getService(host.nameRules.normalize(PROBE_SERVICE).name, { signal });
      } catch (error) {
        // "No such service" is an answer: the service manager is there and talking.
        if (isHostError(error, 'not_found')) return;
        throw error;
      }
    },
  };

  return {
    name: 'system',
    checks: [hostAdapterCheck],
    documents: [
      {
        id: 'system',
        title: 'System service (Connect)',
        file: join(rootDir, 'generated/system/v1alpha1/system.openapi.json'),
        bearerAuth: config.systemToken !== undefined,
      },
    ],
    mount(app) {
      app.route('/', systemConnectRoutes(handler, { token: config.systemToken, onError }));
    },
    async listen() {
      try {
        grpc = await serveSystemGrpc(handler, {
          grpcPort: config.grpcPort,
          grpcHost: config.grpcHost,
          grpcSocket: config.grpcSocket,
          token: config.systemToken,
          onError,
          health: createGrpcHealth({ services: { 'v1alpha1.System': [hostAdapterCheck] }, shutdown: draining.signal }),
        });
      } catch (error) {
        if (error instanceof GrpcListenError && error.addressInUse) {
          throw new StartupError(
            `gRPC port ${config.grpcPort} is already in use on ${config.grpcHost}; stop the other process or choose another GRPC_PORT`,
          );
        }
        throw new StartupError(`${error instanceof Error ? error.message : String(error)} (GRPC_PORT, GRPC_HOST, GRPC_SOCKET)`);
      }
      return grpc.addresses.map((address) => ({ label: address.startsWith('unix:') ? 'gRPC (unix socket)' : 'gRPC', address }));
    },
    summary(origin) {
      // The token itself is never printed; the examples read it from the environment.
      const auth = config.systemToken === undefined ? '' : `-H "authorization: Bearer $SYSTEM_TOKEN" `;
      const request = JSON.stringify({ name: EXAMPLE_SERVICE[host.kind] });
      const grpcAddress = grpc?.addresses.find((address) => !address.startsWith('unix:'));
      const examples = [`curl -H 'content-type: application/json' ${auth}-d '${request}' ${origin}/v1alpha1.System/GetService`];
      if (grpcAddress !== undefined) {
        examples.push(
          `grpcurl -plaintext ${auth}-import-path schemas/system/v1alpha1 -proto system.proto -d '${request}' ${grpcAddress} ` +
            `v1alpha1.System/GetService`,
        );
      }
      return {
        facts: [
          ['Host adapter', config.hostAdapter === 'auto' ? `${host.kind} (detected; HOST_ADAPTER=auto)` : host.kind],
          [
            'System token',
            config.systemToken === undefined
              ? 'not set: Connect calls from other hosts are refused (set SYSTEM_TOKEN to allow them)'
              : 'required',
          ],
        ],
        examples,
      };
    },
    async drain(timeoutMs) {
      // Health watchers hear NOT_SERVING and end; then the listener stops accepting gRPC calls
      // and waits for running ones, cancelling them after the bound.
      draining.abort();
      await grpc?.close(timeoutMs);
    },
    async close() {
      try {
        // Already closed by drain() in a normal shutdown (the handle returns the same promise).
        await grpc?.close(config.shutdownTimeoutMs);
      } finally {
        await host.close();
      }
    },
  };
};
