/**
 * @module
 * Service name validation: the one place that decides which strings may reach a host.
 *
 * csi-proxy validates nothing (names go straight into WMI queries). Loom rejects anything outside
 * a small ASCII alphabet before an adapter sees it, so shell metacharacters, path separators,
 * NUL, non-ASCII look-alikes and 10 kB strings end as INVALID_ARGUMENT, never as data a service
 * manager has to interpret. Each host brings its own rules because they differ:
 *
 * - systemd unit names are case-sensitive, at most 255 characters including the `.service`
 *   suffix, from `[A-Za-z0-9:_.@-]` plus `\xNN` escapes (systemd.unit(5)); a bare name gets
 *   `.service` appended, other unit types are refused.
 * - Windows service names are case-insensitive and at most 256 characters; `/` and `\` are
 *   invalid. Loom also allows `$` (`MSSQL$SQLEXPRESS`), `#`, `+` and inner spaces.
 * - The simulated host uses the shared rule `^[A-Za-z0-9:_.@-]{1,255}$`, case-sensitive unless
 *   configured otherwise.
 */
import { HostError } from './host-adapter.js';

/** A validated name: what to hand to the host, and the key that identifies the service. */
export interface NormalizedServiceName {
  /** The name in the host's own spelling (systemd: with the `.service` suffix). */
  readonly name: string;
  /** Equal for two names that denote the same service (lower-cased where the host ignores case). */
  readonly key: string;
}

/** How one host spells service names. */
export interface ServiceNameRules {
  readonly host: string;
  readonly maxLength: number;
  readonly caseSensitive: boolean;
  /**
   * Validates and normalizes `name`.
   * @throws HostError `invalid_name` with a message that says what is wrong and where.
   */
  normalize(name: string): NormalizedServiceName;
}

const UNIT_TYPES = ['service', 'socket', 'target', 'device', 'mount', 'automount', 'swap', 'timer', 'path', 'slice', 'scope'] as const;

/** systemd: case-sensitive unit names, `.service` implied. */
export const SYSTEMD_NAME_RULES: ServiceNameRules = {
  host: 'systemd',
  maxLength: 255,
  caseSensitive: true,
  normalize(input) {
    checkCommon(input, this.maxLength, /[A-Za-z0-9:_.@\\-]/, 'letters, digits and : _ . @ - (or \\xNN escapes)');
    // A backslash is only the start of a `\xNN` escape, as systemd-escape writes them.
    const badEscape = /\\(?!x[0-9a-fA-F]{2})/.exec(input);
    if (badEscape) fail(input, `"\\" at position ${badEscape.index} must start a \\xNN escape`);
    if ((input.match(/@/g) ?? []).length > 1) fail(input, 'a unit name holds at most one "@"');
    const dot = input.lastIndexOf('.');
    const suffix = dot >= 0 ? input.slice(dot + 1) : '';
    let name = input;
    if (suffix !== 'service') {
      if ((UNIT_TYPES as readonly string[]).includes(suffix)) {
        fail(input, `only service units can be managed, not .${suffix} units`);
      }
      name = `${input}.service`;
    }
    if (name.startsWith('@') || name.startsWith('.')) fail(input, 'a unit name cannot start with "@" or "."');
    if (name.length > this.maxLength)
      fail(input, `"${name.slice(0, 16)}…" is longer than ${this.maxLength} characters with its .service suffix`);
    return { name, key: name };
  },
};

/** Windows: case-insensitive service names, no path separators. */
export const WINDOWS_NAME_RULES: ServiceNameRules = {
  host: 'windows',
  maxLength: 256,
  caseSensitive: false,
  normalize(input) {
    checkCommon(input, this.maxLength, /[A-Za-z0-9:_.@$#+ -]/, 'letters, digits, spaces and : _ . @ $ # + -');
    if (input.trim() !== input) fail(input, 'a service name cannot start or end with a space');
    return { name: input, key: input.toLowerCase() };
  },
};

/**
 * The shared rule of the simulated host.
 *
 * @example
 * ```ts
 * createSimulatedNameRules().normalize('db');                          // { name: 'db', key: 'db' }
 * createSimulatedNameRules({ caseSensitive: false }).normalize('DB');  // { name: 'DB', key: 'db' }
 * ```
 */
export function createSimulatedNameRules({ caseSensitive = true }: { caseSensitive?: boolean } = {}): ServiceNameRules {
  return {
    host: 'simulated',
    maxLength: 255,
    caseSensitive,
    normalize(input) {
      checkCommon(input, this.maxLength, /[A-Za-z0-9:_.@-]/, 'letters, digits and : _ . @ -');
      return { name: input, key: caseSensitive ? input : input.toLowerCase() };
    },
  };
}

function checkCommon(input: string, maxLength: number, allowed: RegExp, allowedText: string): void {
  if (typeof input !== 'string' || input.length === 0) fail('', 'a service name is required');
  // Length first: a 10 kB string is refused without scanning it.
  if (input.length > maxLength) fail(input, `${input.length} characters is longer than the maximum of ${maxLength}`);
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (!allowed.test(ch)) fail(input, `${describeChar(input, i)} at position ${i} is not allowed (allowed: ${allowedText})`);
  }
  if (input.startsWith('-')) fail(input, 'a service name cannot start with "-" (it would read as an option)');
}

function describeChar(input: string, index: number): string {
  const code = input.codePointAt(index)!;
  if (code < 0x20 || code === 0x7f || code > 0x7e) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return JSON.stringify(input[index]);
}

/** Quotes a rejected name for an error message: escaped, and cut short so that 10 kB stay out of logs. */
export function quoteName(input: string): string {
  const quoted = JSON.stringify(input.slice(0, 64)).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return input.length > 64 ? `${quoted}…` : quoted;
}

function fail(input: string, reason: string): never {
  throw new HostError('invalid_name', input === '' ? reason : `invalid service name ${quoteName(input)}: ${reason}`);
}
