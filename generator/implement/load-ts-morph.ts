/**
 * @module
 * Loads ts-morph, and only when `loom implement` runs: it is an optional peer dependency (some
 * 10 MB with the TypeScript it bundles, half a second to load), which `loom generate` never needs.
 */
import type * as TsMorphModule from 'ts-morph';

/** The ts-morph module, as the scaffolder's functions take it. */
export type TsMorph = typeof TsMorphModule;

/** ts-morph is not installed where Loom can import it. */
export class TsMorphMissingError extends Error {
  override readonly name = 'TsMorphMissingError';
  constructor(cause: unknown) {
    super("'loom implement' needs ts-morph, which is not installed: run 'npm install --save-dev ts-morph' and try again", {
      cause,
    });
  }
}

/**
 * Imports ts-morph, or throws {@link TsMorphMissingError} with what to install.
 *
 * @example
 * const tsMorph = await loadTsMorph();
 * const plan = planImplementation({ tsMorph, ... });
 */
export async function loadTsMorph(): Promise<TsMorph> {
  try {
    return await import('ts-morph');
  } catch (error) {
    const code = (error as { code?: string } | null)?.code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw new TsMorphMissingError(error);
    throw error;
  }
}
