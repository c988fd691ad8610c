/**
 * @module Demo data for an empty Issues database: people, an organization, public and private
 * repositories, labels, milestones and a few hundred issues with comments, assignees, labels,
 * dependencies and some pull requests. Deterministic (a seeded PRNG), bulk-loaded in one
 * transaction, so `npm start` on an empty database has something to show in about a second.
 */

import type { ImportIssueInput, IssueStore, RepoRow, UserRow } from './store/store.js';

/** Options of {@link seedDemo}. */
export interface SeedDemoOptions {
  /** How many issues (pull requests included) to create. @default 300 */
  readonly issues?: number;
  /** PRNG seed; the same seed gives the same data. @default 42 */
  readonly seed?: number;
  /**
   * The administrator to use: found by name, or created (with `password`) when missing.
   * @default { name: 'admin', password: 'admin-demo-password' }
   */
  readonly admin?: { readonly name: string; readonly password?: string };
  /** Called after each stage with how far the seeding has got. */
  readonly onProgress?: (progress: { readonly stage: string; readonly done: number; readonly total: number }) => void;
  /** "Now" for the issue timeline, in Unix seconds. @default the clock */
  readonly nowUnix?: number;
}

/** A demo account and how to authenticate as it. */
export interface DemoAccount {
  readonly user: UserRow;
  /** `undefined` for an administrator that existed before (its password is not ours to know). */
  readonly password: string | undefined;
  /** A fresh access token (scopes `all`) named `demo`. */
  readonly token: string;
}

/** What {@link seedDemo} created. */
export interface DemoSeedResult {
  readonly accounts: readonly DemoAccount[];
  readonly org: UserRow;
  readonly repos: readonly RepoRow[];
  readonly issues: number;
}

/** The passwords of the demo people; printed by the server, so never use them for real data. */
export const DEMO_PASSWORDS = { alice: 'alice-demo-password', bob: 'bob-demo-password', carol: 'carol-demo-password' } as const;

/** mulberry32: tiny, fast, good enough for demo data, and identical on every platform. */
function createRandom(seed: number): { next(): number; int(max: number): number; pick<T>(items: readonly T[]): T } {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (max) => Math.floor(next() * max), pick: (items) => items[Math.floor(next() * items.length)]! };
}

const SUBJECTS = [
  'Login page',
  'Search',
  'Issue list',
  'Dark mode',
  'API client',
  'Webhook',
  'Markdown preview',
  'Settings',
  'Notifications',
  'Export',
];
const PROBLEMS = [
  'crashes on start',
  'is slow with many items',
  'shows the wrong date',
  'ignores the time zone',
  'breaks on mobile',
  'needs keyboard shortcuts',
  'should support pagination',
  'returns 500 for empty input',
  'loses unsaved changes',
  'needs better docs',
];
const DETAILS = [
  'Steps to reproduce: open the page, wait a few seconds, click twice.',
  'Seen on Firefox and Chrome; not on Safari.',
  'The log shows a timeout after 30 seconds.',
  'Happens only for users with more than 100 repositories.',
  'A workaround is to reload the page.',
  'This blocks the next release.',
];
const COMMENTS = [
  'I can reproduce this.',
  'Fixed on main, please verify.',
  'Any update?',
  'Duplicate of an older report.',
  'Working on it.',
  'Thanks for the report!',
];

/**
 * Fills an empty store with demo data. Users `alice`, `bob`, `carol` (passwords in
 * {@link DEMO_PASSWORDS}) and the administrator; organization `acme` (owner carol); repositories
 * `alice/proj` (public), `alice/secret` (private, bob writes), `acme/website` (public, alice
 * writes) and `acme/internal` (private).
 *
 * @example
 * const store = await createStore(':memory:');
 * const demo = await seedDemo(store, { issues: 300, onProgress: (p) => console.log(p.stage) });
 * demo.accounts[0].token; // use as `Authorization: token …`
 */
export async function seedDemo(store: IssueStore, options: SeedDemoOptions = {}): Promise<DemoSeedResult> {
  const total = Math.max(0, Math.floor(options.issues ?? 300));
  const random = createRandom(options.seed ?? 42);
  const now = options.nowUnix ?? Math.floor(Date.now() / 1000);
  const report = (stage: string, done: number) => options.onProgress?.({ stage, done, total });
  const adminSpec = options.admin ?? { name: 'admin', password: 'admin-demo-password' };

  // Passwords are hashed with scrypt (slow on purpose), so accounts are made before the transaction.
  const existingAdmin = await store.findUserByName(adminSpec.name);
  const admin =
    existingAdmin ??
    (await store.createUser({
      name: adminSpec.name,
      email: `${adminSpec.name}@example.com`,
      password: adminSpec.password ?? 'admin-demo-password',
      isAdmin: true,
      fullName: 'Administrator',
    }));
  const alice = await store.createUser({
    name: 'alice',
    email: 'alice@example.com',
    password: DEMO_PASSWORDS.alice,
    fullName: 'Alice Liddell',
  });
  const bob = await store.createUser({ name: 'bob', email: 'bob@example.com', password: DEMO_PASSWORDS.bob, fullName: 'Bob Builder' });
  const carol = await store.createUser({
    name: 'carol',
    email: 'carol@example.com',
    password: DEMO_PASSWORDS.carol,
    fullName: 'Carol Danvers',
  });
  report('users', 0);

  return store.transaction(async (tx) => {
    const accounts: DemoAccount[] = [];
    for (const [user, password] of [
      [admin, existingAdmin ? undefined : (adminSpec.password ?? 'admin-demo-password')],
      [alice, DEMO_PASSWORDS.alice],
      [bob, DEMO_PASSWORDS.bob],
      [carol, DEMO_PASSWORDS.carol],
    ] as const) {
      const { token } = await tx.createAccessToken({ userId: user.id, name: `demo-${now}` });
      accounts.push({ user, password, token });
    }
    const org = await tx.createOrg({ name: 'acme', ownerId: carol.id, fullName: 'ACME Corporation', description: 'Demo organization' });
    const orgLabel = await tx.createLabel({
      orgId: org.id,
      name: 'priority/high',
      color: 'd93f0b',
      description: 'Organization-wide priority',
    });

    const specs = [
      { ownerId: alice.id, name: 'proj', description: 'A public demo project', isPrivate: false, writers: [alice, bob] },
      { ownerId: alice.id, name: 'secret', description: 'A private demo project', isPrivate: true, writers: [alice, bob] },
      { ownerId: org.id, name: 'website', description: 'The public website', isPrivate: false, writers: [carol, alice] },
      { ownerId: org.id, name: 'internal', description: 'Internal tooling', isPrivate: true, writers: [carol] },
    ];
    const repos: RepoRow[] = [];
    const perRepo = new Map<number, { labelIds: number[]; milestoneIds: number[]; writers: UserRow[] }>();
    for (const spec of specs) {
      const repo = await tx.createRepo({
        ownerId: spec.ownerId,
        name: spec.name,
        description: spec.description,
        isPrivate: spec.isPrivate,
      });
      for (const writer of spec.writers) if (writer.id !== spec.ownerId) await tx.setCollaborator(repo.id, writer.id, 'write');
      const labelIds = [];
      for (const [name, color] of [
        ['bug', 'ee0701'],
        ['enhancement', '84b6eb'],
        ['question', 'cc317c'],
        ['docs', '0075ca'],
      ] as const) {
        labelIds.push((await tx.createLabel({ repoId: repo.id, name, color })).id);
      }
      if (spec.ownerId === org.id) labelIds.push(orgLabel.id);
      const milestoneIds = [
        (await tx.createMilestone({ repoId: repo.id, title: 'v1.0', state: 'closed', description: 'First release' })).id,
        (await tx.createMilestone({ repoId: repo.id, title: 'v1.1', deadlineUnix: now + 30 * 86400 })).id,
        (await tx.createMilestone({ repoId: repo.id, title: 'v2.0' })).id,
      ];
      repos.push(repo);
      perRepo.set(repo.id, { labelIds, milestoneIds, writers: spec.writers });
    }
    if (repos[1]) await tx.setCollaborator(repos[1].id, carol.id, 'read');
    report('repositories', 0);

    const people = [alice, bob, carol];
    const inputs: ImportIssueInput[] = [];
    const firstCreated = now - 90 * 86400;
    for (let i = 0; i < total; i++) {
      const repo = repos[i % repos.length]!;
      const { labelIds, milestoneIds, writers } = perRepo.get(repo.id)!;
      const createdUnix = firstCreated + Math.floor(((i + random.next()) / Math.max(1, total)) * 89 * 86400);
      const isPull = random.next() < 0.08;
      const mention = random.next() < 0.2 ? ` cc @${random.pick(people).name}` : '';
      const assignees = random.next() < 0.5 ? [random.pick(writers).id] : [];
      const comments = Array.from({ length: random.int(4) }, (_, c) => ({
        posterId: random.pick(people).id,
        body: random.pick(COMMENTS),
        createdUnix: createdUnix + (c + 1) * 3600,
      }));
      inputs.push({
        repoId: repo.id,
        posterId: random.pick(repo.isPrivate ? writers : people).id,
        title: `${random.pick(SUBJECTS)} ${random.pick(PROBLEMS)}`,
        body: `${random.pick(DETAILS)} ${random.pick(DETAILS)}${mention}`,
        createdUnix,
        updatedUnix: createdUnix + comments.length * 3600,
        closed: random.next() < 0.3,
        labelIds: random.next() < 0.7 ? [...new Set([random.pick(labelIds), ...(random.next() < 0.3 ? [random.pick(labelIds)] : [])])] : [],
        milestoneId: random.next() < 0.5 ? random.pick(milestoneIds) : null,
        assigneeIds: assignees,
        deadlineUnix: random.next() < 0.1 ? now + random.int(60) * 86400 : null,
        comments,
        ...(isPull
          ? {
              pull: { merged: random.next() < 0.3, draft: random.next() < 0.2 },
              ref: `refs/heads/feature-${i}`,
              reviewRequestIds: [random.pick(writers).id],
            }
          : {}),
      });
    }
    await tx.importIssues(inputs);
    report('issues', total);

    // A few "blocked by" links between open issues of the same repository.
    let links = 0;
    for (const repo of repos) {
      const open = (await tx.searchIssues({ repoIds: [repo.id], state: 'open', type: 'issues', limit: 12, sort: 'oldest' })).items;
      for (let i = 1; i + 1 < open.length && links < Math.ceil(total / 30); i += 3) {
        await tx.addDependency(open[i + 1]!.id, open[i]!.id);
        links++;
      }
    }
    report('dependencies', total);
    return { accounts, org, repos, issues: total };
  });
}
