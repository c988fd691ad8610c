/**
 * @module
 * Win32_Service strings → proto enums, and Win32_Service method return codes → host errors.
 */
import { ServiceStatus, StartType } from '../../../generated/system/v1alpha1/system.types.js';
import { HostError, type HostErrorKind } from '../host-adapter.js';

const STATES: Readonly<Record<string, ServiceStatus>> = {
  Unknown: ServiceStatus.UNKNOWN,
  Stopped: ServiceStatus.STOPPED,
  'Start Pending': ServiceStatus.START_PENDING,
  'Stop Pending': ServiceStatus.STOP_PENDING,
  Running: ServiceStatus.RUNNING,
  'Continue Pending': ServiceStatus.CONTINUE_PENDING,
  'Pause Pending': ServiceStatus.PAUSE_PENDING,
  Paused: ServiceStatus.PAUSED,
};

const START_MODES: Readonly<Record<string, StartType>> = {
  Boot: StartType.BOOT,
  System: StartType.SYSTEM,
  Auto: StartType.AUTOMATIC,
  Manual: StartType.MANUAL,
  Disabled: StartType.DISABLED,
};

/** `Win32_Service.State` → ServiceStatus; an unexpected string is UNKNOWN. */
export function toServiceStatus(state: string): ServiceStatus {
  return STATES[state] ?? ServiceStatus.UNKNOWN;
}

/**
 * `Win32_Service.StartMode` → StartType. csi-proxy turns an unexpected string into BOOT (0), which
 * claims a driver start type; Loom reports MANUAL, the start type that promises nothing.
 */
export function toStartType(startMode: string): StartType {
  return START_MODES[startMode] ?? StartType.MANUAL;
}

/** Return codes of Win32_Service.StartService/StopService (Microsoft docs), with the kind each maps to. */
const RETURN_CODES: Readonly<Record<number, readonly [HostErrorKind, string]>> = {
  1: ['precondition_failed', 'the request is not supported'],
  2: ['permission_denied', 'the user did not have the necessary access'],
  3: ['dependents_running', 'the service cannot be stopped because other services that are running depend on it'],
  4: ['precondition_failed', 'the requested control code is not valid, or it is unacceptable to the service'],
  5: ['precondition_failed', 'the requested control code cannot be sent to the service because its state does not accept it'],
  6: ['precondition_failed', 'the service has not been started'],
  7: ['timeout', 'the service did not respond to the start request in a timely fashion'],
  8: ['command_failed', 'unknown failure when starting the service'],
  9: ['command_failed', 'the directory path to the service executable file was not found'],
  10: ['precondition_failed', 'the service is already running'],
  11: ['command_failed', 'the database to add a new service is locked'],
  12: ['precondition_failed', 'a dependency this service relies on has been removed from the system'],
  13: ['command_failed', 'the service failed to find the service needed from a dependent service'],
  14: ['precondition_failed', 'the service has been disabled from the system'],
  15: ['command_failed', 'the service does not have the correct authentication to run on the system'],
  16: ['command_failed', 'this service is being removed from the system'],
  17: ['command_failed', 'the service has no execution thread'],
  18: ['command_failed', 'the service has circular dependencies when it starts'],
  19: ['command_failed', 'a service is running under the same name'],
  20: ['command_failed', 'the service name has invalid characters'],
  21: ['command_failed', 'invalid parameters have been passed to the service'],
  22: ['command_failed', 'the account under which this service runs is either invalid or lacks the permissions to run the service'],
  23: ['command_failed', 'the service exists in the database of services available from the system'],
  24: ['precondition_failed', 'the service is currently paused in the system'],
};

/** The HostError for a failing Win32_Service method return value. */
export function win32ReturnError(method: 'StartService' | 'StopService', service: string, code: number): HostError {
  const [kind, text] = RETURN_CODES[code] ?? (['command_failed', 'unexpected return value'] as const);
  return new HostError(kind, `${method} of ${service} failed with return value ${code}: ${text}`);
}
