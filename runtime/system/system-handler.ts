/**
 * @module
 * The System service handler: the `SystemService` implementation served over Connect and gRPC.
 *
 * What it adds to a bare host adapter (and to csi-proxy, which has none of it):
 * - names are validated by the host's rules before any adapter sees them (INVALID_ARGUMENT);
 * - StartService and StopService are serialized per service (a keyed mutex on the normalized
 *   name, so `nginx` and `nginx.service`, or `Spooler` and `spooler` on Windows, are one key),
 *   while different services proceed in parallel; GetService never waits for the lock, it reports
 *   the state as it is, pending states included;
 * - host errors become precise RPC codes ({@link toSystemRpcError});
 * - the call's `signal` (client cancel, Connect-Timeout-Ms, gRPC deadline) ends the wait for the
 *   lock and for the host.
 */
import type { SystemService } from '../../generated/system/v1alpha1/system.server.js';
import type {
  GetBIOSSerialNumberRequest,
  GetBIOSSerialNumberResponse,
  GetServiceRequest,
  GetServiceResponse,
  StartServiceRequest,
  StartServiceResponse,
  StopServiceRequest,
  StopServiceResponse,
} from '../../generated/system/v1alpha1/system.types.js';
import type { RpcContext } from '../rpc/index.js';
import { toSystemRpcError } from './error-mapping.js';
import type { HostAdapter, ServiceOperationOptions } from './host-adapter.js';
import { KeyedMutex } from './keyed-mutex.js';
import type { NormalizedServiceName } from './service-name.js';

/** The slice of {@link RpcContext} the handler reads, so that in-process callers can pass just a signal. */
export type SystemCallContext = Pick<RpcContext, 'signal'>;

/**
 * @example
 * ```ts
 * const handler = new SystemHandler(await createHostAdapter());
 * app.route('/', connectRoutes(SystemServiceDescriptor, handler, { authorize: requireBearerToken(token) }));
 * addGrpcService(grpcServer, SystemServiceDescriptor, handler);
 * ```
 */
export class SystemHandler implements SystemService {
  readonly #mutex = new KeyedMutex();

  constructor(readonly host: HostAdapter) {}

  async getBIOSSerialNumber(_request: GetBIOSSerialNumberRequest, ctx: SystemCallContext): Promise<GetBIOSSerialNumberResponse> {
    const serialNumber = await this.#call(ctx, () => this.host.getBiosSerial(lazySignal(ctx)));
    return { serialNumber };
  }

  async getService(request: GetServiceRequest, ctx: SystemCallContext): Promise<GetServiceResponse> {
    return this.#call(ctx, async () => {
      const { name } = this.#normalize(request.name);
      const info = await this.host.getService(name, lazySignal(ctx));
      return { displayName: info.displayName, startType: info.startType, status: info.status };
    });
  }

  async startService(request: StartServiceRequest, ctx: SystemCallContext): Promise<StartServiceResponse> {
    await this.#call(ctx, () => {
      const { name, key } = this.#normalize(request.name);
      return this.#mutex.run(key, () => this.host.startService(name, { signal: ctx.signal }), ctx.signal);
    });
    return {};
  }

  async stopService(request: StopServiceRequest, ctx: SystemCallContext): Promise<StopServiceResponse> {
    await this.#call(ctx, () => {
      const { name, key } = this.#normalize(request.name);
      const force = request.force === true;
      return this.#mutex.run(key, () => this.host.stopService(name, { force, signal: ctx.signal }), ctx.signal);
    });
    return {};
  }

  /** Closes the host adapter. */
  close(): Promise<void> {
    return this.host.close();
  }

  #normalize(name: unknown): NormalizedServiceName {
    // Codecs fill proto3 zero values, but in-process callers may not: treat absent as empty.
    return this.host.nameRules.normalize(typeof name === 'string' ? name : '');
  }

  async #call<T>(ctx: SystemCallContext, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw toSystemRpcError(error, ctx.signal);
    }
  }
}

/**
 * Operation options whose `signal` is read from the context only when an adapter asks for it:
 * the RPC runtime builds the signal on first use (an AbortController and a cancel listener per
 * gRPC call), and an in-memory GetService never needs it.
 */
function lazySignal(ctx: SystemCallContext): ServiceOperationOptions {
  return {
    get signal() {
      return ctx.signal;
    },
  };
}
