/**
 * @module
 * Turning a failed `systemctl` run into a {@link HostError}: first by what systemctl said (no
 * systemd, polkit denial), then by its LSB exit code (system-rpc-notes §6.2).
 */

import type { CommandResult } from '../command-runner.js';
import { HostError } from '../host-adapter.js';

const NO_SYSTEMD = /has not been booted with systemd|Failed to connect to bus|Failed to get D-Bus connection|Host is down/i;
const DENIED = /Access denied|Interactive authentication required|authentication (is )?required|Permission denied|not authorized/i;

/**
 * Classifies a non-zero exit of `systemctl <action> -- <unit>`.
 *
 * | exit | cause | kind |
 * |---|---|---|
 * | any | "System has not been booted with systemd", no bus | unavailable |
 * | any | "Access denied", polkit "Interactive authentication required" | permission_denied |
 * | 5 | NoSuchUnit | not_found |
 * | 1 with "masked", 3, 4, 6 | masked, not applicable, only by dependency, load failed | precondition_failed |
 * | other | job failed and everything else | command_failed (stderr in the message) |
 */
export function classifySystemctlFailure(result: CommandResult, action: string, unit: string): HostError {
  const output = (result.stderr.trim() || result.stdout.trim() || 'no output').split('\n').slice(0, 5).join(' ');
  const message = `systemctl ${action} ${unit} failed (exit ${result.exitCode}): ${output}`;
  if (NO_SYSTEMD.test(output)) return new HostError('unavailable', `systemd is not running on this host: ${output}`);
  if (DENIED.test(output)) return new HostError('permission_denied', message);
  switch (result.exitCode) {
    case 5:
      return new HostError('not_found', `unit ${unit} does not exist: ${output}`);
    case 3:
    case 4:
    case 6:
      return new HostError('precondition_failed', message);
    case 1:
      return new HostError(/masked/i.test(output) ? 'precondition_failed' : 'command_failed', message);
    default:
      return new HostError('command_failed', message);
  }
}
