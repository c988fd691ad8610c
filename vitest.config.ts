import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'generator/**/*.test.ts', 'runtime/**/*.test.ts'],
    // Servers, databases and child processes: give slow machines room, never time behaviour.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The PostgreSQL of the run: the configured server when one answers, else one started for the run.
    globalSetup: ['test/support/postgres-setup.ts'],
  },
});
