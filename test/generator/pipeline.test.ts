/**
 * The whole pipeline (loaders → every emitter → files) on real schemas, with the output
 * type-checked by `tsc` as a user project would. Slow-ish: one generation and one `tsc`
 * per schema.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { SystemServiceDescriptor } from '../../generated/system/v1alpha1/system.codec.js';
import { runCli } from '../../generator/cli/cli.js';
import { REPO, typeCheck } from '../support/tsc-check.js';

const tmp = mkdtempSync(join(tmpdir(), 'loom-pipeline-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function generate(name: string, schema: string): Promise<string> {
  const dir = join(tmp, name);
  mkdirSync(join(dir, 'schemas'), { recursive: true });
  copyFileSync(schema, join(dir, 'schemas', schema.split('/').pop()!));
  let stderr = '';
  const code = await runCli(['generate', 'schemas', '--out', 'gen', '--quiet'], {
    cwd: dir,
    stdout: () => {},
    stderr: (t) => (stderr += t),
  });
  expect(stderr.split('\n').filter((l) => l.includes(': error:'))).toEqual([]);
  expect(code).toBe(0);
  return join(dir, 'gen');
}

describe('pipeline on real schemas', () => {
  it('system.proto: types, validators, OpenAPI document; output type-checks', async () => {
    const gen = await generate('system', join(REPO, 'schemas/system/v1alpha1/system.proto'));
    const types = readFileSync(join(gen, 'system.types.ts'), 'utf8');
    expect(types).toContain(`/**
 * @generated from message v1alpha1.GetServiceResponse
 */
export interface GetServiceResponse {`);
    expect(types).toContain('  startType: StartType;\n');
    expect(types).toContain('export type ServiceStatus = (typeof ServiceStatus)[keyof typeof ServiceStatus];\n');
    const doc = JSON.parse(readFileSync(join(gen, 'system.openapi.json'), 'utf8'));
    // One Connect route per RPC, in the schema's order: what the service descriptor lists.
    expect(Object.keys(doc.paths)).toEqual(Object.values(SystemServiceDescriptor.methods).map((m) => m.path));
    expect(Object.keys(doc.paths)).toContain('/v1alpha1.System/GetService');
    const v = await import(pathToFileURL(join(gen, 'system.validators.ts')).href);
    expect(v.validateStopServiceRequest({ name: 'sshd', force: true })).toBe(true);
    expect(v.validateStopServiceRequest({ name: 'sshd', force: 'yes' })).toBe(false);
    expect(await typeCheck(gen)).toBe('');
    expect(await typeCheck(gen, { exactOptionalPropertyTypes: true })).toBe('');
  });

  it('Gitea issues subset (Swagger 2.0): body validators and types type-check', async () => {
    const gen = await generate(
      'gitea-subset',
      fileURLToPath(new URL('../fixtures/reference/gitea-issues-swagger-subset.json', import.meta.url)),
    );
    const types = readFileSync(join(gen, 'gitea-issues-swagger-subset.types.ts'), 'utf8');
    expect(types).toContain('export interface CreateIssueOption {');
    expect(types).toMatch(/^ {2}title: string;$/m);
    const validators = readFileSync(join(gen, 'gitea-issues-swagger-subset.validators.ts'), 'utf8');
    expect(validators).toMatch(/^export const validateIssueCreateIssueBody: Validator<CreateIssueOption> = validate\w+;$/m);
    const v = await import(pathToFileURL(join(gen, 'gitea-issues-swagger-subset.validators.ts')).href);
    expect(v.validateIssueCreateIssueBody({ title: 'Bug' })).toBe(true);
    expect(v.validateIssueCreateIssueBody({ body: 'no title' })).toBe(false);
    expect(v.validateIssueCreateIssueBody.errors[0]).toMatchObject({ keyword: 'required', params: { missingProperty: 'title' } });
    expect(await typeCheck(gen)).toBe('');
  });

  it('google-proto-files pubsub (imports, well-known types, maps, oneofs): every file type-checks', async () => {
    const protos = join(REPO, 'node_modules/google-proto-files');
    const dir = join(tmp, 'pubsub');
    mkdirSync(dir);
    let stderr = '';
    const code = await runCli(['generate', join(protos, 'google/pubsub/v1'), '--out', 'gen', '-I', protos, '--quiet'], {
      cwd: dir,
      stdout: () => {},
      stderr: (t) => (stderr += t),
    });
    expect(stderr.split('\n').filter((l) => l.includes(': error:'))).toEqual([]);
    expect(code).toBe(0);
    const types = readFileSync(join(dir, 'gen/pubsub.types.ts'), 'utf8');
    expect(types).toContain(`  /**
   * Optional. Attributes for this message. If this field is empty, the message
   * must contain non-empty data. This can be used to filter messages on the
   * subscription.
   *
   * @generated from field: map<string, string> attributes = 2;
   */
  attributes: { [key: string]: string };`);
    expect(types).toMatch(/@generated from field: google\.protobuf\.Timestamp publish_time = 4;\n {3}\*\/\n {2}publishTime\?: string;/);
    expect(readFileSync(join(dir, 'gen/google/protobuf/empty.types.ts'), 'utf8')).toContain('export type Empty = Record<string, never>;\n');
    expect(await typeCheck(join(dir, 'gen'))).toBe('');
  });

  it("Gitea's whole API (467 operations): every file type-checks", async () => {
    const gen = await generate('gitea-full', fileURLToPath(new URL('../fixtures/reference/gitea-swagger-v1.25.3.json', import.meta.url)));
    const doc = JSON.parse(readFileSync(join(gen, 'gitea-swagger-v1.25.3.openapi.json'), 'utf8'));
    const operations = Object.values(doc.paths as Record<string, object>).reduce((n, item) => n + Object.keys(item).length, 0);
    expect(operations).toBe(467);
    expect(doc.servers).toEqual([{ url: '/api/v1' }]);
    // The document stands alone: every reference resolves inside it.
    const refs = new Set([...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
    expect(refs.size).toBeGreaterThan(100);
    expect([...refs].filter((r) => !(r in doc.components.schemas))).toEqual([]);
    expect(await typeCheck(gen)).toBe('');
    // Projects that turn on exactOptionalPropertyTypes: every routes class passes optional
    // parameters that were not sent as `undefined`.
    expect(await typeCheck(gen, { exactOptionalPropertyTypes: true })).toBe('');
  });
});
