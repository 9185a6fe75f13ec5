// `npm run test:e2e`: the slow end-to-end folders jest.config.js names (it runs everything else).
import { E2E_FOLDERS, shared } from './jest.config.js';

export default {
  ...shared,
  roots: E2E_FOLDERS.map((folder) => `<rootDir>/test/${folder}`),
  testPathIgnorePatterns: ['/node_modules/'],
};
