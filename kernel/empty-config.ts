/** The configuration of a run with no config files: every section absent. */
import type { ResolvedConfig } from '../types/config.js';

export const emptyConfig: ResolvedConfig = {
  layers: [],
  warnings: [],
  section: () => undefined,
  locate: () => undefined,
};
