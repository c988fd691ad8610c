/**
 * @module
 * The System service domain: the handler served over Connect and gRPC, the host adapters it
 * drives (systemd, Windows, simulated), and the helpers the composition root wires them with.
 *
 * @example
 * ```ts
 * const handler = new SystemHandler(await createHostAdapter({ env: process.env }));
 * app.route('/', systemConnectRoutes(handler, { token: process.env.SYSTEM_TOKEN }));
 * const grpcHandle = await serveSystemGrpc(handler, {
 *   grpcPort: 50051,
 *   grpcSocket: process.env.GRPC_SOCKET,
 *   token: process.env.SYSTEM_TOKEN,
 * });
 * ```
 */

export type { HostAdapterFactoryOptions, HostAdapterSetting } from './adapter-factory.js';
export {
  createHostAdapter,
  detectHostAdapter,
  HOST_ADAPTER_VALUES,
  HostAdapterConfigError,
  parseHostAdapterSetting,
} from './adapter-factory.js';
export { requireBearerToken } from './bearer-token.js';
export type { CommandOptions, CommandResult, CommandRunner } from './command-runner.js';
export { createExecFileRunner, limitConcurrency } from './command-runner.js';
export { RPC_CODE_BY_HOST_ERROR, toSystemRpcError } from './error-mapping.js';
export type {
  HostAdapter,
  HostAdapterKind,
  HostErrorKind,
  ServiceInfo,
  ServiceOperationOptions,
  StopServiceOptions,
} from './host-adapter.js';
export { HostError, isHostError } from './host-adapter.js';
export { KeyedMutex } from './keyed-mutex.js';
export { isLoopbackAddress, isLoopbackHost, REMOTE_CALL_REFUSED, requireLocalPeer } from './peer-access.js';
export type { ServeSystemGrpcOptions, SystemConnectOptions, SystemGrpcHandle, SystemTransportOptions } from './serve.js';
export { GrpcListenError, serveSystemGrpc, systemAuthorize, systemConnectAuthorize, systemConnectRoutes } from './serve.js';
export type { NormalizedServiceName, ServiceNameRules } from './service-name.js';
export { createSimulatedNameRules, SYSTEMD_NAME_RULES, WINDOWS_NAME_RULES } from './service-name.js';
export { DEFAULT_HOST_TABLE } from './simulated/default-table.js';
export type { SimulatedHostTable, SimulatedServiceSpec } from './simulated/host-table.js';
export { HostTableError, loadHostTableFile, parseHostTable, parseHostTableText } from './simulated/host-table.js';
export type { CreateSimulatedHostOptions, SimulatedHostOptions } from './simulated/simulated-host.js';
export { createSimulatedHost, SimulatedHost } from './simulated/simulated-host.js';
export type { SystemCallContext } from './system-handler.js';
export { SystemHandler } from './system-handler.js';
export type { SystemdHostOptions } from './systemd/systemd-host.js';
export { SystemdHost } from './systemd/systemd-host.js';
export type { WindowsHostOptions } from './windows/windows-host.js';
export { WindowsHost } from './windows/windows-host.js';
