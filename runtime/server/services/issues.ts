/**
 * @module
 * The Issues service module: opens the store named by `DATABASE_URL` (its migrations run on
 * open), creates the bootstrap administrator on first start, seeds demo data into an empty
 * database unless `LOOM_DEMO=0`, and mounts the Gitea-compatible API under `/api/v1`.
 */
import { join } from 'node:path';
import type { Context } from 'hono';
import { DEMO_PASSWORDS, type DemoSeedResult, seedDemo } from '../../issues/demo-seed.js';
import { createIssuesService, resolveIssuesConfig } from '../../issues/index.js';
import { createStore, type IssueStore } from '../../issues/store/index.js';
import { type ServiceFactory, StartupError } from '../service-module.js';

/** Issues in the demo data set: enough to page and search, quick to insert. */
const DEMO_ISSUES = 300;

/**
 * Opens the Issues service.
 *
 * @example
 * ```ts
 * const issues = await createIssuesModule({ config, logger, rootDir, origin: 'http://localhost:3000' });
 * issues.mount(app); // GET /api/v1/repos/issues/search …
 * ```
 */
export const createIssuesModule: ServiceFactory = async ({ config, logger, rootDir, origin }) => {
  const database = describeDatabase(config.databaseUrl);
  logger.info({ database }, 'opening the database and applying migrations');
  let store: IssueStore;
  try {
    store = await createStore(config.databaseUrl);
  } catch (error) {
    throw new StartupError(`cannot open the database (${database}): ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    logger.info({ database, engine: store.info.engine, schemaVersion: store.info.schemaVersion }, 'database ready');
    // Asked before the bootstrap administrator exists, which would make the database non-empty.
    const empty = (await store.countUsers()) === 0;
    // Resolved here for the banner: an unset LOOM_TIME_ZONE means the process's own zone.
    const issuesConfig = resolveIssuesConfig({ publicUrl: `${origin}/`, timeZone: config.timeZone });
    const service = await createIssuesService({
      store,
      config: issuesConfig,
      env: { LOOM_ADMIN_USER: config.adminUser, LOOM_ADMIN_PASSWORD: config.adminPassword },
      onUnexpectedError: (error) => logger.error({ err: error }, 'unexpected error in the Issues API'),
    });
    if (service.bootstrappedAdmin !== undefined)
      logger.info({ admin: service.bootstrappedAdmin.name }, 'created the bootstrap administrator');
    let demo: DemoSeedResult | undefined;
    if (config.demo && empty) {
      try {
        demo = await seedDemo(store, {
          issues: DEMO_ISSUES,
          // The demo's administrator is the bootstrap one when configured, so there is only one.
          ...(config.adminUser !== undefined && { admin: { name: config.adminUser, password: config.adminPassword } }),
          onProgress: ({ stage, done, total }) => logger.info({ stage, done, total }, 'seeding demo data'),
        });
      } catch (error) {
        throw new StartupError(`cannot seed demo data: ${error instanceof Error ? error.message : String(error)} (LOOM_DEMO=0 skips it)`);
      }
      logger.info(
        { issues: demo.issues, repos: demo.repos.length, users: demo.accounts.map((account) => account.user.name) },
        'demo data ready',
      );
    }
    const demoState =
      demo !== undefined
        ? `seeded: ${demo.issues} issues in ${demo.repos.length} repositories`
        : !config.demo
          ? 'off (LOOM_DEMO=0)'
          : 'not seeded (database not empty)';
    return {
      name: 'issues',
      checks: [{ name: 'database', check: async () => void (await store.countUsers()) }],
      documents: [{ id: 'issues', title: 'Issues API', file: join(rootDir, 'generated/issues/openapi.openapi.json') }],
      mount(app) {
        // The whole prefix is handed to the Issues app (rather than merging its routes into the
        // shared router) so that every path under /api/v1, unknown ones included, gets the API's
        // own Gitea-shaped 404 and error bodies.
        const forward = (c: Context) => service.app.fetch(c.req.raw, c.env);
        app.all('/api/v1', forward);
        app.all('/api/v1/*', forward);
      },
      summary(base) {
        const facts: [string, string][] = [
          ['Database', database],
          ['Time zone', issuesConfig.timeZone],
          ['Demo data', demoState],
        ];
        const examples = [`curl '${base}/api/v1/repos/issues/search?limit=5'`];
        if (demo !== undefined) {
          // Demo accounts only, printed once when they are created: these are not real credentials.
          facts.push(['Demo sign-in', `alice / ${DEMO_PASSWORDS.alice} (also bob, carol)`]);
          examples.push(`curl -u alice:${DEMO_PASSWORDS.alice} '${base}/api/v1/repos/alice/secret/issues?state=all&limit=5'`);
        }
        return { facts, examples };
      },
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
};

/**
 * How the banner names a database: `SQLite ./data/loom.db`, or `PostgreSQL` with the URL's
 * password replaced by `***`.
 *
 * @example
 * ```ts
 * describeDatabase('postgres://loom:hunter2@db:5432/loom'); // 'PostgreSQL postgres://loom:***@db:5432/loom'
 * ```
 */
export function describeDatabase(url: string): string {
  if (/^postgres(ql)?:\/\//i.test(url)) return `PostgreSQL ${url.replace(/^([a-z]+:\/\/[^:/@]*):[^@/]*@/i, '$1:***@')}`;
  return `SQLite ${url.startsWith('file:') ? url.slice('file:'.length) : url}`;
}
