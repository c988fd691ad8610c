/**
 * @module
 * A host adapter wrapper that records every start and stop with its outcome, in the order they
 * finished, and the most operations ever in flight on one service at once.
 */
import type { ServiceStatus } from '../../../generated/system/v1alpha1/system.types.js';
import {
  type HostAdapter,
  isHostError,
  type ServiceOperationOptions,
  type StopServiceOptions,
} from '../../../runtime/system/host-adapter.js';

export interface RecordedOperation {
  readonly op: 'start' | 'stop' | 'stop --force';
  readonly name: string;
  /** `ok` or the HostError kind. */
  readonly outcome: string;
}

export class RecordingHost implements HostAdapter {
  readonly log: RecordedOperation[] = [];
  readonly #inFlight = new Map<string, number>();
  maxInFlightPerService = 0;

  constructor(readonly inner: HostAdapter & { snapshot(): { services: readonly { name: string; status: ServiceStatus }[] } }) {}

  get kind() {
    return this.inner.kind;
  }
  get nameRules() {
    return this.inner.nameRules;
  }
  getBiosSerial() {
    return this.inner.getBiosSerial();
  }
  getService(name: string) {
    return this.inner.getService(name);
  }
  startService(name: string, options?: ServiceOperationOptions) {
    return this.#record('start', name, () => this.inner.startService(name, options));
  }
  stopService(name: string, options: StopServiceOptions) {
    return this.#record(options.force ? 'stop --force' : 'stop', name, () => this.inner.stopService(name, options));
  }
  close() {
    return this.inner.close();
  }
  statuses(): Map<string, ServiceStatus> {
    return new Map(this.inner.snapshot().services.map((s) => [s.name, s.status]));
  }

  async #record(op: RecordedOperation['op'], name: string, fn: () => Promise<void>): Promise<void> {
    const now = (this.#inFlight.get(name) ?? 0) + 1;
    this.#inFlight.set(name, now);
    this.maxInFlightPerService = Math.max(this.maxInFlightPerService, now);
    try {
      await fn();
      this.log.push({ op, name, outcome: 'ok' });
    } catch (error) {
      this.log.push({ op, name, outcome: isHostError(error) ? error.kind : 'unexpected' });
      throw error;
    } finally {
      this.#inFlight.set(name, this.#inFlight.get(name)! - 1);
    }
  }
}
