/**
 * The generation gap, end to end: hand-written handlers implement generated contracts;
 * when a schema gains an RPC or a required response field and generation runs again,
 * the client has the new method and `tsc` points at exactly the handler that must change;
 * `loom implement` then adds the new method's stub, and only the field is left to `tsc`.
 * The System schema is csi-proxy's reference copy, so that the handler below, which implements
 * its four RPCs, stays complete however the repository's own schema grows.
 * See docs/generation-gap.md.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../generator/cli/cli.js';
import { REPO, typeCheck } from '../support/tsc-check.js';

const tmp = mkdtempSync(join(tmpdir(), 'loom-gap-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SYSTEM_HANDLER = `import type { RpcContext } from 'loom/connect/server';
import type { SystemService } from '../gen/system.server.js';
import type * as t from '../gen/system.types.js';

export class SystemHandler implements SystemService {
  async getBIOSSerialNumber(_req: t.GetBIOSSerialNumberRequest, _ctx: RpcContext): Promise<t.GetBIOSSerialNumberResponse> {
    return { serialNumber: 'SN-1' };
  }
  async startService(_req: t.StartServiceRequest, _ctx: RpcContext): Promise<t.StartServiceResponse> {
    return {};
  }
  async stopService(_req: t.StopServiceRequest, _ctx: RpcContext): Promise<t.StopServiceResponse> {
    return {};
  }
  async getService(_req: t.GetServiceRequest, _ctx: RpcContext): Promise<t.GetServiceResponse> {
    return { displayName: 'db', startType: 2, status: 4 };
  }
}
`;

const DEADLINE_HANDLER = `import type { IssueDeadline } from '../gen/issues.types.js';

/** What the Issues handler returns for a deadline update. */
export function deadlineOf(due: Date): IssueDeadline {
  return { due_date: due.toISOString() };
}
`;

async function generate(dir: string): Promise<void> {
  let stderr = '';
  const code = await runCli(['generate', 'schemas', '--out', 'gen', '--runtime', 'loom', '--quiet'], {
    cwd: dir,
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect(stderr).toBe('');
  expect(code).toBe(0);
}

describe('generation gap', () => {
  it('a new RPC and a new required field make tsc name the handlers to change', async () => {
    const dir = join(tmp, 'project');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    mkdirSync(join(dir, 'handlers'));
    const proto = join(dir, 'schemas/system.proto');
    const openapi = join(dir, 'schemas/issues.yaml');
    copyFileSync(join(REPO, 'test/fixtures/reference/csi-proxy-system-v1alpha1.proto'), proto);
    copyFileSync(join(REPO, 'schemas/issues/openapi.yaml'), openapi);
    writeFileSync(join(dir, 'handlers/system-handler.ts'), SYSTEM_HANDLER);
    writeFileSync(join(dir, 'handlers/deadline.ts'), DEADLINE_HANDLER);

    await generate(dir);
    expect(await typeCheck(dir)).toBe('');

    // The schemas change: a new RPC, and a field the deadline response must now carry.
    writeFileSync(
      proto,
      readFileSync(proto, 'utf8').replace(
        '  rpc GetService(GetServiceRequest) returns (GetServiceResponse) {}',
        '  rpc GetService(GetServiceRequest) returns (GetServiceResponse) {}\n\n  // RestartService stops then starts a service\n' +
          '  rpc RestartService(StartServiceRequest) returns (StartServiceResponse) {}',
      ),
    );
    const yaml = readFileSync(openapi, 'utf8');
    const grown = yaml.replace(
      /(\n {4}IssueDeadline:\n {6}description: IssueDeadline represents an issue deadline\n {6}type: object\n)( {6}properties:\n)/,
      '$1      required: [due_date, timezone]\n$2        timezone:\n          type: string\n',
    );
    expect(grown).not.toBe(yaml);
    writeFileSync(openapi, grown);

    await generate(dir);
    const client = readFileSync(join(dir, 'gen/system.client.ts'), 'utf8');
    expect(client).toMatch(/\brestartService\(/);
    expect(readFileSync(join(dir, 'gen/issues.types.ts'), 'utf8')).toContain(
      'export interface IssueDeadline {\n  timezone: string;\n  due_date: string;\n}',
    );

    const output = await typeCheck(dir);
    const errors = output.split('\n').filter((l) => l.includes('error TS'));
    // Exactly the two hand-written files, nothing in generated code.
    expect(errors.map((l) => l.replace(/\(.*$/, '').split('/').slice(-2).join('/')).sort()).toEqual([
      'handlers/deadline.ts',
      'handlers/system-handler.ts',
    ]);
    // tsc names what is missing (on the error line or the lines elaborating it).
    expect(output).toMatch(/Property 'restartService' is missing in type 'SystemHandler'/);
    expect(output).toMatch(/Property 'timezone' is missing/);

    // The scaffolder writes the missing method; the field stays the compiler's to point at.
    let stderr = '';
    const code = await runCli(['implement', 'handlers', '--contracts', 'gen', '--quiet'], {
      cwd: dir,
      stdout: () => {},
      stderr: (t) => (stderr += t),
    });
    expect([code, stderr]).toEqual([0, '']);
    expect(readFileSync(join(dir, 'handlers/system-handler.ts'), 'utf8')).toContain(`  /**
   * RestartService stops then starts a service
   *
   * Serves rpc v1alpha1.System.RestartService.
   */
  async restartService(request: t.StartServiceRequest, ctx: RpcContext): Promise<t.StartServiceResponse> {
    throw new RpcError('unimplemented', 'v1alpha1.System.RestartService is not implemented');
  }
}
`);
    const after = (await typeCheck(dir)).split('\n').filter((l) => l.includes('error TS'));
    expect(after.map((l) => l.replace(/\(.*$/, '').split('/').slice(-2).join('/'))).toEqual(['handlers/deadline.ts']);
  });
});
