import type { ConfigPath } from '../types/config.js';

/** `["providers", 0, "api_key"]` → `providers[0].api_key` (the form used in every message). */
export function renderConfigPath(path: ConfigPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}
