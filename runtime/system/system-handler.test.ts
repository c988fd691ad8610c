import { describe, expect, it } from 'vitest';
import { ServiceStatus, StartType } from '../../generated/system/v1alpha1/system.types.js';
import { type RpcCode, RpcError } from '../rpc/index.js';
import { RPC_CODE_BY_HOST_ERROR } from './error-mapping.js';
import { type HostAdapter, HostError, type HostErrorKind, type ServiceInfo } from './host-adapter.js';
import { createSimulatedNameRules, type ServiceNameRules, SYSTEMD_NAME_RULES } from './service-name.js';
import { SystemHandler } from './system-handler.js';

const ctx = () => ({ signal: new AbortController().signal });

/** An adapter whose start/stop wait for the test to release them, and that logs every call. */
class ControlledHost implements HostAdapter {
  readonly kind = 'simulated';
  readonly log: string[] = [];
  readonly #gates: Array<() => void> = [];
  inFlight = 0;
  maxInFlight = 0;
  failWith?: HostError;

  constructor(readonly nameRules: ServiceNameRules = createSimulatedNameRules()) {}

  async getBiosSerial(): Promise<string> {
    if (this.failWith) throw this.failWith;
    return 'SERIAL-1';
  }
  async getService(name: string): Promise<ServiceInfo> {
    this.log.push(`get ${name}`);
    if (this.failWith) throw this.failWith;
    return { displayName: name.toUpperCase(), startType: StartType.MANUAL, status: ServiceStatus.RUNNING };
  }
  startService(name: string): Promise<void> {
    return this.#op(`start ${name}`);
  }
  stopService(name: string, { force }: { force: boolean }): Promise<void> {
    return this.#op(`stop ${name} force=${force}`);
  }
  async close(): Promise<void> {}

  /** Releases the oldest held operation. */
  release(): void {
    this.#gates.shift()?.();
  }
  get held(): number {
    return this.#gates.length;
  }

  async #op(label: string): Promise<void> {
    this.log.push(`${label} begin`);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise<void>((resolve) => this.#gates.push(resolve));
    this.inFlight--;
    this.log.push(`${label} end`);
    if (this.failWith) throw this.failWith;
  }
}

async function rpcError(promise: Promise<unknown>): Promise<RpcError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RpcError);
  return error as RpcError;
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('SystemHandler', () => {
  it('answers the four operations in the generated shapes', async () => {
    const host = new ControlledHost();
    const handler = new SystemHandler(host);
    expect(await handler.getBIOSSerialNumber({}, ctx())).toEqual({ serialNumber: 'SERIAL-1' });
    expect(await handler.getService({ name: 'db' }, ctx())).toEqual({
      displayName: 'DB',
      startType: StartType.MANUAL,
      status: ServiceStatus.RUNNING,
    });
    const started = handler.startService({ name: 'db' }, ctx());
    await tick();
    host.release();
    expect(await started).toEqual({});
    const stopped = handler.stopService({ name: 'db', force: true }, ctx());
    await tick();
    host.release();
    expect(await stopped).toEqual({});
    expect(host.log).toEqual(['get db', 'start db begin', 'start db end', 'stop db force=true begin', 'stop db force=true end']);
  });

  it('rejects invalid names with invalid_argument before the host sees them', async () => {
    const host = new ControlledHost();
    const handler = new SystemHandler(host);
    for (const call of [
      handler.getService({ name: '../etc' }, ctx()),
      handler.startService({ name: 'a;b' }, ctx()),
      handler.stopService({ name: '', force: false }, ctx()),
    ]) {
      expect((await rpcError(call)).code).toBe('invalid_argument');
    }
    expect((await rpcError(handler.getService({ name: 'x'.repeat(10_240) }, ctx()))).message).toBe(
      `invalid service name "${'x'.repeat(64)}"…: 10240 characters is longer than the maximum of 255`,
    );
    expect(host.log).toEqual([]);
  });

  it('passes the host its own spelling of the name (systemd: .service appended)', async () => {
    const host = new ControlledHost(SYSTEMD_NAME_RULES);
    await new SystemHandler(host).getService({ name: 'nginx' }, ctx());
    expect(host.log).toEqual(['get nginx.service']);
  });

  it.each(Object.entries(RPC_CODE_BY_HOST_ERROR) as Array<[HostErrorKind, RpcCode]>)(
    'maps host error %s to %s with its message',
    async (kind, code) => {
      const host = new ControlledHost();
      host.failWith = new HostError(kind, `the host says ${kind}`);
      const error = await rpcError(new SystemHandler(host).getService({ name: 'db' }, ctx()));
      expect([error.code, error.message]).toEqual([code, `the host says ${kind}`]);
    },
  );

  it('hides the text of an unexpected error behind internal', async () => {
    const host = new ControlledHost();
    host.getService = async () => {
      throw new TypeError('cannot read properties of undefined (/secret/path)');
    };
    const error = await rpcError(new SystemHandler(host).getService({ name: 'db' }, ctx()));
    expect([error.code, error.message]).toEqual(['internal', 'internal error in the System service']);
  });

  it('serializes operations on one service and runs different services in parallel', async () => {
    const host = new ControlledHost();
    const handler = new SystemHandler(host);
    const calls = [
      handler.startService({ name: 'db' }, ctx()),
      handler.stopService({ name: 'db', force: false }, ctx()),
      handler.startService({ name: 'web' }, ctx()),
    ];
    await tick();
    // db's stop waits for db's start; web runs beside db.
    expect(host.log).toEqual(['start db begin', 'start web begin']);
    expect(host.held).toBe(2);
    host.release(); // db start
    await tick();
    expect(host.log).toEqual(['start db begin', 'start web begin', 'start db end', 'stop db force=false begin']);
    host.release(); // web start
    host.release(); // db stop
    await Promise.all(calls);
    expect(host.maxInFlight).toBe(2);
  });

  it('treats two spellings of one systemd unit as one service', async () => {
    const host = new ControlledHost(SYSTEMD_NAME_RULES);
    const handler = new SystemHandler(host);
    const calls = [handler.startService({ name: 'nginx' }, ctx()), handler.stopService({ name: 'nginx.service', force: false }, ctx())];
    await tick();
    expect(host.held).toBe(1);
    host.release();
    await tick();
    host.release();
    await Promise.all(calls);
    expect(host.maxInFlight).toBe(1);
  });

  it('does not make GetService wait for a start in progress', async () => {
    const host = new ControlledHost();
    const handler = new SystemHandler(host);
    const start = handler.startService({ name: 'db' }, ctx());
    await tick();
    await handler.getService({ name: 'db' }, ctx());
    expect(host.log).toEqual(['start db begin', 'get db']);
    host.release();
    await start;
  });

  it("gives up waiting for the lock when the call is canceled, with the runtime's reason", async () => {
    const host = new ControlledHost();
    const handler = new SystemHandler(host);
    const first = handler.startService({ name: 'db' }, ctx());
    const controller = new AbortController();
    const second = handler.stopService({ name: 'db', force: false }, { signal: controller.signal });
    await tick();
    controller.abort(new RpcError('deadline_exceeded', 'deadline of 50 ms exceeded'));
    const error = await rpcError(second);
    expect([error.code, error.message]).toEqual(['deadline_exceeded', 'deadline of 50 ms exceeded']);
    host.release();
    await first;
    expect(host.log).toEqual(['start db begin', 'start db end']);
  });

  it('does not start a state change for a call that is already canceled', async () => {
    const host = new ControlledHost();
    const handler = new SystemHandler(host);
    const error = await rpcError(handler.startService({ name: 'db' }, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('canceled');
    expect(host.log).toEqual([]);
  });
});
