/**
 * @module Released migrations never change: a database that ran one keeps what it ran, so an edit
 * would leave new and old databases with different schemas (PostgreSQL's migration 3 is built from
 * the accent table of `keyword.ts`, so editing that table would change it too). A change to the
 * schema or to that table needs a new migration; a new migration adds its own row here.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { POSTGRES_MIGRATIONS } from './postgres/postgres-migrations.js';
import { SQLITE_MIGRATIONS } from './sqlite/sqlite-migrations.js';

describe('released migrations', () => {
  const released: [engine: 'sqlite' | 'postgres', version: number, sha256: string][] = [
    ['sqlite', 1, '70835067121be86e778537a1ee1f848deb86fba30db2027aeb01e14b13f280e3'],
    ['sqlite', 2, '61f6425b5bdb9200608b7aa77df8fa29a65e60962b39563583feea974c7ae770'],
    ['sqlite', 3, '1b62fb0dbb7f0feaa676faae24cf0e996188db10cf66cee9265053925af4e2e4'],
    ['sqlite', 4, '5685e0cb2165eae2b4d1ea70a0f534d99c5b1355189339736611d36362b981b0'],
    ['postgres', 1, '5813f45154e206ad3a58eb673d3b575fa6038ea0d37d93ee10aebd9405e58ee0'],
    ['postgres', 2, '1b62fb0dbb7f0feaa676faae24cf0e996188db10cf66cee9265053925af4e2e4'],
    ['postgres', 3, 'efa8c326bd671baaa838154d993af75dbc910c5b7fa5eab72b47d3ffc2604d22'],
  ];
  it.each(released)('%s migration %i is as it was released', (engine, version, sha256) => {
    const migration = (engine === 'sqlite' ? SQLITE_MIGRATIONS : POSTGRES_MIGRATIONS).find((m) => m.version === version);
    const actual = migration === undefined ? 'missing' : createHash('sha256').update(migration.script).digest('hex');
    expect(actual, `${engine} migration ${version} changed: released migrations are never edited; add a new one`).toBe(sha256);
  });
  it('every migration is listed here', () => {
    const listed = (engine: string) => released.filter(([e]) => e === engine).map(([, v]) => v);
    expect(SQLITE_MIGRATIONS.map((m) => m.version)).toEqual(listed('sqlite'));
    expect(POSTGRES_MIGRATIONS.map((m) => m.version)).toEqual(listed('postgres'));
  });
});
