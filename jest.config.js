import os from 'node:os';

/**
 * The test folders `npm run test:e2e` runs (jest.e2e.config.js): the built CLI end to end, the
 * security attack corpora, the OS sandbox plugin (its tests start bubblewrap and git for almost
 * every case), packaging and hostile npm plugins. They spend minutes starting processes;
 * `npm test` (this config) runs everything else, and `npm run test:all` (the README's command,
 * `.ci/run`) runs both.
 */
export const E2E_FOLDERS = ['cli', 'security', 'extension', 'plugins/sandbox-os'];

export const shared = {
  // TypeScript through esbuild (test/esbuild-transform.cjs says why), run as ES modules.
  extensionsToTreatAsEsm: ['.ts', '.tsx', '.mts'],
  transform: { '^.+\\.m?tsx?$': '<rootDir>/test/esbuild-transform.cjs' },
  testSequencer: '<rootDir>/test/sequencer.cjs',
  testEnvironment: 'node',
  testMatch: ['**/*.test.ts'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  globalSetup: '<rootDir>/test/global-setup.mjs',
  globalTeardown: '<rootDir>/test/global-teardown.mjs',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Test files run in parallel: most of their time is spent waiting for the processes they start
  // (the built CLI, git, bubblewrap, tmux, MCP servers), so one worker per core plus one keeps the
  // cores busy (jest's default, cores − 1, is a single in-band runner on a 2-core machine).
  // Files are independent: each makes its own temporary directories, ports and servers.
  maxWorkers: process.env.MEWCODE_TEST_WORKERS ? Number(process.env.MEWCODE_TEST_WORKERS) : Math.max(2, os.availableParallelism() + 1),
  testTimeout: 30000,
};

export default {
  ...shared,
  // One worker more here: the type-check (test/architecture/typecheck.test.ts) holds one for
  // 40–70 s on a single thread. Measured on 2 cores, whole `npm test`: 239 s with 3, 229 s with 4.
  maxWorkers: process.env.MEWCODE_TEST_WORKERS ? Number(process.env.MEWCODE_TEST_WORKERS) : Math.max(2, os.availableParallelism() + 2),
  roots: ['<rootDir>/test'],
  testPathIgnorePatterns: ['/node_modules/', ...E2E_FOLDERS.map((folder) => `<rootDir>/test/${folder}/`)],
};
