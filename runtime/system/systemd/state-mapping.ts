/**
 * @module
 * The mapping tables from systemd's unit state to the proto's Windows-shaped enums
 * (system-rpc-notes §6.6 and §6.7).
 */
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import type { UnitProperties } from './show-output.js';

/**
 * `ActiveState` (+ `FreezerState`) → `ServiceStatus`.
 *
 * | ActiveState | ServiceStatus |
 * |---|---|
 * | active, reloading | RUNNING (PAUSE_PENDING / PAUSED / CONTINUE_PENDING while freezing / frozen / thawing) |
 * | activating | START_PENDING |
 * | deactivating | STOP_PENDING |
 * | inactive, failed, maintenance | STOPPED (Windows has no "failed"; cleaning only runs on stopped units) |
 * | anything else, or LoadState error / bad-setting | UNKNOWN |
 */
export function toServiceStatus(unit: UnitProperties): ServiceStatus {
  const load = unit.get('LoadState');
  if (load === 'error' || load === 'bad-setting') return ServiceStatus.UNKNOWN;
  const active = unit.get('ActiveState');
  switch (active) {
    case 'active':
    case 'reloading':
      switch (unit.get('FreezerState')) {
        case 'freezing':
          return ServiceStatus.PAUSE_PENDING;
        case 'frozen':
          return ServiceStatus.PAUSED;
        case 'thawing':
          return ServiceStatus.CONTINUE_PENDING;
        default:
          return ServiceStatus.RUNNING;
      }
    case 'activating':
      return ServiceStatus.START_PENDING;
    case 'deactivating':
      return ServiceStatus.STOP_PENDING;
    case 'inactive':
    case 'failed':
    case 'maintenance':
      return ServiceStatus.STOPPED;
    default:
      return ServiceStatus.UNKNOWN;
  }
}

/**
 * `UnitFileState` (+ `LoadState=masked`) → `StartType`.
 *
 * enabled, enabled-runtime → AUTOMATIC; masked, masked-runtime → DISABLED; everything else
 * (disabled, static, indirect, linked, alias, generated, transient, bad, empty) → MANUAL, since
 * such a unit can still be started or pulled in. BOOT and SYSTEM are Windows driver start types
 * and never come from systemd.
 */
export function toStartType(unit: UnitProperties): StartType {
  if (unit.get('LoadState') === 'masked') return StartType.DISABLED;
  switch (unit.get('UnitFileState')) {
    case 'enabled':
    case 'enabled-runtime':
      return StartType.AUTOMATIC;
    case 'masked':
    case 'masked-runtime':
      return StartType.DISABLED;
    default:
      return StartType.MANUAL;
  }
}

/** States in which a dependent blocks a non-forced stop: it is up or on its way up. */
export function isActiveState(activeState: string | undefined): boolean {
  return activeState === 'active' || activeState === 'activating' || activeState === 'reloading';
}
