/**
 * @module
 * The simulated host's default service table, used when `SIMULATED_HOST_FILE` is not set.
 *
 * | name | displayName | startType | status | dependsOn |
 * |---|---|---|---|---|
 * | `db` | Database | AUTOMATIC | RUNNING | |
 * | `web` | Web Server | AUTOMATIC | RUNNING | db |
 * | `worker` | Background Worker | MANUAL | STOPPED | db |
 * | `cache` | Cache | MANUAL | STOPPED | |
 * | `legacy` | Legacy Agent | DISABLED | STOPPED | |
 *
 * BIOS serial: `SIM-0001`. It covers every behaviour a client may want to try: a running chain
 * (`web` → `db`, so stopping `db` needs `force`), a stopped service whose start pulls in a
 * dependency (`worker`), a free-standing one (`cache`) and one that refuses to start (`legacy`).
 */
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import type { SimulatedHostTable } from './host-table.js';

/** The table the simulated host starts from when `SIMULATED_HOST_FILE` is unset. */
export const DEFAULT_HOST_TABLE: SimulatedHostTable = {
  biosSerial: 'SIM-0001',
  services: [
    { name: 'db', displayName: 'Database', startType: StartType.AUTOMATIC, status: ServiceStatus.RUNNING, dependsOn: [] },
    { name: 'web', displayName: 'Web Server', startType: StartType.AUTOMATIC, status: ServiceStatus.RUNNING, dependsOn: ['db'] },
    { name: 'worker', displayName: 'Background Worker', startType: StartType.MANUAL, status: ServiceStatus.STOPPED, dependsOn: ['db'] },
    { name: 'cache', displayName: 'Cache', startType: StartType.MANUAL, status: ServiceStatus.STOPPED, dependsOn: [] },
    { name: 'legacy', displayName: 'Legacy Agent', startType: StartType.DISABLED, status: ServiceStatus.STOPPED, dependsOn: [] },
  ],
};
