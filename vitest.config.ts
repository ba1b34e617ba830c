import { defineConfig } from 'vitest/config';

// Tests run in Node against real loopback servers, a real SQLite file and (when
// TEST_DATABASE_URL is set) the machine's PostgreSQL; nothing here mocks the network.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The skip summary ends the run with one line per skipped group and what to set to run it.
    reporters: ['default', './test/reporters/skip-summary.ts'],
  },
});
