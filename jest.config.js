import { createDefaultEsmPreset } from 'ts-jest';
import os from 'node:os';

export default {
  ...createDefaultEsmPreset({ tsconfig: './tsconfig.json' }),
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  setupFiles: ['<rootDir>/test/setup.ts'],
  globalSetup: '<rootDir>/test/security/global-setup.mjs',
  globalTeardown: '<rootDir>/test/security/global-teardown.mjs',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Test files run in parallel: most of their time is spent waiting for the processes they start
  // (the built CLI, git, bubblewrap, tmux, MCP servers), so one worker per core plus one keeps the
  // cores busy (jest's default, cores − 1, is a single in-band runner on a 2-core machine).
  // Files are independent: each makes its own temporary directories, ports and servers.
  maxWorkers: process.env.MEWCODE_TEST_WORKERS ? Number(process.env.MEWCODE_TEST_WORKERS) : Math.max(2, os.availableParallelism() + 1),
  testTimeout: 30000,
};
