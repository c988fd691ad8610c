/**
 * `--time-zone` / `LOOM_TIME_ZONE`: the Issues API's server zone, validated like every other
 * option (an unknown zone is a one-line configuration error, which `main.ts` exits 2 on).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, type ServerConfig } from './config.js';

function run(argv: string[], env: Record<string, string> = {}): ServerConfig {
  const request = parseConfig(argv, env);
  if (request.kind !== 'run') throw new Error(`expected run, got ${request.kind}`);
  return request.config;
}

function failure(argv: string[], env: Record<string, string> = {}): ConfigError {
  try {
    parseConfig(argv, env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('the time zone option', () => {
  it("is unset by default, so the Issues service takes the process's zone", () => {
    expect(run([]).timeZone).toBeUndefined();
    expect(run([], { LOOM_TIME_ZONE: ' ' }).timeZone).toBeUndefined();
  });

  it('reads LOOM_TIME_ZONE, and --time-zone wins over it', () => {
    expect(run([], { LOOM_TIME_ZONE: 'Europe/Berlin' }).timeZone).toBe('Europe/Berlin');
    expect(run(['--time-zone', 'Asia/Kolkata'], { LOOM_TIME_ZONE: 'Europe/Berlin' }).timeZone).toBe('Asia/Kolkata');
    expect(run(['--time-zone=UTC']).timeZone).toBe('UTC');
  });

  it('answers an unknown zone with a one-line error naming the flag or variable', () => {
    expect(failure([], { LOOM_TIME_ZONE: 'Mars/Olympus' }).message).toBe(
      'invalid LOOM_TIME_ZONE: must be an IANA time zone such as Europe/Berlin or UTC (got "Mars/Olympus")',
    );
    expect(failure(['--time-zone', 'CEST+2']).message).toBe(
      'invalid --time-zone: must be an IANA time zone such as Europe/Berlin or UTC (got "CEST+2")',
    );
    expect(failure(['--time-zone']).message).toBe('--time-zone needs a value (<zone>)');
  });
});
