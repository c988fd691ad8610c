import { describe, expect, it } from 'vitest';
import { HostError } from './host-adapter.js';
import { createSimulatedNameRules, type ServiceNameRules, SYSTEMD_NAME_RULES, WINDOWS_NAME_RULES } from './service-name.js';

function rejection(rules: ServiceNameRules, name: string): HostError {
  try {
    rules.normalize(name);
  } catch (error) {
    expect(error).toBeInstanceOf(HostError);
    expect((error as HostError).kind).toBe('invalid_name');
    return error as HostError;
  }
  throw new Error(`${JSON.stringify(name)} was accepted`);
}

const HOSTILE = [
  'db; rm -rf /',
  '$(reboot)',
  '`id`',
  'a|b',
  'a&b',
  'a>b',
  "a'b",
  'a"b',
  '../etc/passwd',
  'C:\\Windows\\System32',
  'a/b',
  'nul\u0000byte',
  'line\nbreak',
  'tab\there',
  'ｄｂ', // full-width look-alike
  'café',
  '😀',
  '-rf',
  '--help',
  '',
  'x'.repeat(10 * 1024),
];

describe.each([
  ['systemd', SYSTEMD_NAME_RULES],
  ['windows', WINDOWS_NAME_RULES],
  ['simulated', createSimulatedNameRules()],
])('%s name rules', (_host, rules) => {
  it.each(HOSTILE.map((name) => [JSON.stringify(name).slice(0, 40), name]))('rejects hostile name %s', (_label, name) => {
    const error = rejection(rules, name);
    // The message quotes at most 64 characters of the input, escaped.
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).not.toContain('\u0000');
    expect(error.message).not.toContain('\n');
  });

  it('names the offending character and its position', () => {
    expect(rejection(rules, 'db;x').message).toBe(
      `invalid service name "db;x": ";" at position 2 is not allowed (allowed: ${allowedText(rules)})`,
    );
    expect(rejection(rules, 'a\u0000').message).toContain('U+0000 at position 1');
  });

  it('refuses a 10 kB name by its length', () => {
    expect(rejection(rules, 'a'.repeat(10_240)).message).toContain(`10240 characters is longer than the maximum of ${rules.maxLength}`);
  });
});

function allowedText(rules: ServiceNameRules): string {
  if (rules.host === 'systemd') return 'letters, digits and : _ . @ - (or \\xNN escapes)';
  if (rules.host === 'windows') return 'letters, digits, spaces and : _ . @ $ # + -';
  return 'letters, digits and : _ . @ -';
}

describe('systemd names', () => {
  it('appends .service to a bare name and keeps case', () => {
    expect(SYSTEMD_NAME_RULES.normalize('nginx')).toEqual({ name: 'nginx.service', key: 'nginx.service' });
    expect(SYSTEMD_NAME_RULES.normalize('nginx.service')).toEqual({ name: 'nginx.service', key: 'nginx.service' });
    expect(SYSTEMD_NAME_RULES.normalize('NetworkManager').key).not.toBe(SYSTEMD_NAME_RULES.normalize('networkmanager').key);
  });

  it('accepts template instances and \\xNN escapes', () => {
    expect(SYSTEMD_NAME_RULES.normalize('getty@tty1').name).toBe('getty@tty1.service');
    expect(SYSTEMD_NAME_RULES.normalize('systemd-fsck@dev-disk-by\\x2duuid-1234').name).toBe(
      'systemd-fsck@dev-disk-by\\x2duuid-1234.service',
    );
  });

  it('refuses other unit types, stray backslashes, two @ and a name too long with its suffix', () => {
    expect(rejection(SYSTEMD_NAME_RULES, 'sshd.socket').message).toContain('only service units can be managed, not .socket units');
    expect(rejection(SYSTEMD_NAME_RULES, 'multi-user.target').message).toContain('not .target units');
    expect(rejection(SYSTEMD_NAME_RULES, 'a\\b').message).toContain('must start a \\xNN escape');
    expect(rejection(SYSTEMD_NAME_RULES, 'a@b@c').message).toContain('at most one "@"');
    expect(rejection(SYSTEMD_NAME_RULES, 'a'.repeat(250)).message).toContain('longer than 255 characters with its .service suffix');
    expect(SYSTEMD_NAME_RULES.normalize('a'.repeat(247)).name).toHaveLength(255);
  });
});

describe('Windows names', () => {
  it('is case-insensitive: one key for any spelling', () => {
    expect(WINDOWS_NAME_RULES.normalize('Spooler')).toEqual({ name: 'Spooler', key: 'spooler' });
    expect(WINDOWS_NAME_RULES.normalize('SPOOLER').key).toBe('spooler');
  });

  it('accepts real-world names: $ instances, inner spaces, 256 characters', () => {
    expect(WINDOWS_NAME_RULES.normalize('MSSQL$SQLEXPRESS').name).toBe('MSSQL$SQLEXPRESS');
    expect(WINDOWS_NAME_RULES.normalize('My Service').name).toBe('My Service');
    expect(WINDOWS_NAME_RULES.normalize('a'.repeat(256)).name).toHaveLength(256);
    expect(rejection(WINDOWS_NAME_RULES, 'a'.repeat(257)).message).toContain('257 characters is longer than the maximum of 256');
    expect(rejection(WINDOWS_NAME_RULES, ' lead').message).toContain('cannot start or end with a space');
  });
});

describe('simulated names', () => {
  it('are case-sensitive by default and case-insensitive on request', () => {
    expect(createSimulatedNameRules().normalize('DB').key).toBe('DB');
    expect(createSimulatedNameRules({ caseSensitive: false }).normalize('DB')).toEqual({ name: 'DB', key: 'db' });
  });
});
