/**
 * @module
 * The bootstrap administrator: on start, `LOOM_ADMIN_USER` / `LOOM_ADMIN_PASSWORD` create a
 * site administrator when no user of that name exists yet, so a fresh database is usable
 * through the API alone (create users, tokens, repositories…).
 */
import type { IssueStore, UserRow } from '../store/store.js';

/** Options of {@link bootstrapAdmin}. */
export interface BootstrapAdminOptions {
  readonly name: string;
  readonly password: string;
  /** @default `${name}@localhost` */
  readonly email?: string;
}

/**
 * Creates the administrator unless a user of that name exists; an existing account (and its
 * password) is left untouched, so restarting with the same environment is harmless.
 *
 * @returns the new administrator, or `undefined` when nothing was created.
 *
 * @example
 * await bootstrapAdmin(store, { name: 'root', password: process.env.LOOM_ADMIN_PASSWORD! });
 */
export async function bootstrapAdmin(store: IssueStore, options: BootstrapAdminOptions): Promise<UserRow | undefined> {
  if (options.name.trim() === '' || options.password === '') {
    throw new Error('bootstrapAdmin: LOOM_ADMIN_USER and LOOM_ADMIN_PASSWORD must both be non-empty');
  }
  if (await store.findUserByName(options.name)) return undefined;
  return store.createUser({
    name: options.name.trim(),
    email: options.email ?? `${options.name.trim().toLowerCase()}@localhost`,
    password: options.password,
    isAdmin: true,
    fullName: 'Administrator',
  });
}

/**
 * Reads the bootstrap settings from the environment; `undefined` when `LOOM_ADMIN_USER` is unset.
 *
 * @example
 * const admin = adminFromEnv(process.env); // { name: 'root', password: '…' }
 */
export function adminFromEnv(env: Readonly<Record<string, string | undefined>>): BootstrapAdminOptions | undefined {
  const name = env.LOOM_ADMIN_USER?.trim();
  if (!name) return undefined;
  const password = env.LOOM_ADMIN_PASSWORD ?? '';
  if (password === '') throw new Error('LOOM_ADMIN_USER is set but LOOM_ADMIN_PASSWORD is empty');
  return { name, password };
}
