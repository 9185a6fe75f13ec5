/**
 * The plugin's configuration section:
 *
 *   bash:
 *     env_allowlist: [GOPATH, HTTPS_PROXY, LC_ALL]   # extra variables passed to commands
 *
 * Validated by hand rather than with zod: the section is one list of names, and a static zod
 * import here would put zod back into the CLI's main chunk, which loads it only when a
 * kernel section needs it (ARCHITECTURE.md "Load on first use"). Issues are worded like `zodSection`'s
 * and located by the kernel (file:line:col); a bad section is ignored with a warning (K2).
 */
import type { ConfigIssue, ConfigSection } from '../../types/config.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export interface BashSettings {
  /** Extra environment variable names passed through to commands (exact names). */
  envAllowlist: readonly string[];
}

export const DEFAULT_BASH_SETTINGS: BashSettings = { envAllowlist: [] };

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

export const bashSection: ConfigSection<BashSettings> = {
  key: 'bash',
  parse(raw) {
    if (raw === null) return { ok: true, value: DEFAULT_BASH_SETTINGS }; // `bash:` with nothing under it
    if (typeof raw !== 'object' || Array.isArray(raw)) {
      return { ok: false, issues: [{ path: [], message: `Expected object, received ${describe(raw)}` }] };
    }
    const issues: ConfigIssue[] = [];
    const names: string[] = [];
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
      if (key !== 'env_allowlist') {
        issues.push({ path: [key], message: `Unknown key "${terminalSafe(key)}"` });
        continue;
      }
      if (!Array.isArray(value)) {
        issues.push({ path: [key], message: `Expected array, received ${describe(value)}` });
        continue;
      }
      value.forEach((name: unknown, index) => {
        if (typeof name !== 'string') issues.push({ path: [key, index], message: `Expected string, received ${describe(name)}` });
        else if (!ENV_NAME.test(name)) {
          issues.push({ path: [key, index], message: `"${name}" is not an environment variable name (letters, digits and _, not starting with a digit)` });
        } else if (!names.includes(name)) names.push(name);
      });
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: { envAllowlist: names } };
  },
};
