/**
 * @module
 * The PostgreSQL of this test run, as `postgres-setup.ts` (vitest's global setup) found or started
 * it. Every test that connects to PostgreSQL takes its URL from here, so a run with no server on
 * the configured address goes to the one started for it.
 */
import { inject } from 'vitest';
import type {} from './postgres-setup.js';

/** `postgres://…/test` with trust auth; tests make schemas of their own in it and drop them. */
export const TEST_POSTGRES_URL: string = inject('postgresUrl');
