/**
 * @module
 * Translating the store's deliberate errors into Gitea answers, per operation.
 */
import { IssueStoreError, type IssueStoreErrorCode } from '../../store/store.js';
import { GiteaError } from '../errors.js';

/** Status and message per store error code; codes left out are rethrown (→ 500). */
export type StoreErrorMapping = Partial<Record<IssueStoreErrorCode, readonly [status: number, message?: string]>>;

/**
 * Runs a store call and maps an `IssueStoreError` by its code; other errors pass through.
 *
 * @example
 * await mapStoreErrors(() => store.createRepo(input), { conflict: [409, 'The repository with the same name already exists.'] });
 */
export async function mapStoreErrors<T>(fn: () => Promise<T>, mapping: StoreErrorMapping): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof IssueStoreError) {
      const entry = mapping[error.code];
      if (entry) throw new GiteaError(entry[0], entry[1] ?? error.message);
    }
    throw error;
  }
}
