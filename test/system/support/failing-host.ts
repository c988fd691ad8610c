/**
 * @module
 * A host adapter for error tests: the simulated host, except that a service named
 * `fail-<kind>` (e.g. `fail-permission_denied`) fails every operation with that HostError kind,
 * and `hang` never finishes starting until the caller's signal aborts.
 */
import {
  HostError,
  type HostErrorKind,
  type ServiceOperationOptions,
  type StopServiceOptions,
} from '../../../runtime/system/host-adapter.js';
import { SimulatedHost } from '../../../runtime/system/simulated/simulated-host.js';

export class FailingHost extends SimulatedHost {
  override async getService(name: string) {
    this.#maybeFail(name);
    return super.getService(name);
  }

  override async startService(name: string, options: ServiceOperationOptions = {}) {
    this.#maybeFail(name);
    if (name === 'hang') {
      await new Promise<void>((_resolve, reject) => {
        options.signal?.addEventListener('abort', () => reject(new HostError('canceled', 'stopped waiting')), { once: true });
      });
    }
    return super.startService(name, options);
  }

  override async stopService(name: string, options: StopServiceOptions) {
    this.#maybeFail(name);
    return super.stopService(name, options);
  }

  #maybeFail(name: string): void {
    if (name.startsWith('fail-')) {
      const kind = name.slice('fail-'.length).replaceAll('-', '_') as HostErrorKind;
      throw new HostError(kind, `simulated ${kind} for ${name}`);
    }
  }
}
