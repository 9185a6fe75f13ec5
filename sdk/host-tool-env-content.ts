/**
 * Content judges (as host-tool-content.ts) for the project files that set variables for a tool on
 * the user's machine, line by line: corepack's `.corepack.env`, Yarn's `.env.yarn`, RVM's
 * `.ruby-env` and `.versions.conf`, rbenv-vars' `.rbenv-vars`. Each answers what it found, or
 * undefined for a file that names no program and no path. Allow-lists: a line this does not know
 * to be harmless counts.
 */
import { shown, versionWordOffence } from './host-tool-versions.js';

/**
 * Lines as a dotenv or `key=value` reader has them, blank ones and `#` comments dropped. Split at
 * every line end some reader knows (dotenv's multi-line pattern also starts a line after `\r`,
 * U+2028 and U+2029): a piece is judged on its own, so no comment hides a setting.
 */
const settingLines = (text: string): string[] =>
  text
    .split(/\r\n|[\r\n\u2028\u2029]/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));

/** A control character other than a tab or a line's end: a reader may split lines where this does not (a lone `\r`). */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/**
 * corepack's variables that select nothing to run: whether to prompt before a download, to
 * refuse another package manager than the pinned one, to pin one in package.json. Every other
 * `COREPACK_*` may: `COREPACK_HOME` (where it finds the installed package managers it runs),
 * `COREPACK_NPM_REGISTRY`, `COREPACK_INTEGRITY_KEYS`, `COREPACK_ENABLE_UNSAFE_CUSTOM_URLS`…
 */
const COREPACK_HARMLESS = new Set(['COREPACK_ENABLE_DOWNLOAD_PROMPT', 'COREPACK_ENABLE_STRICT', 'COREPACK_ENABLE_AUTO_PIN']);
const HARMLESS_VALUE = /^(?:"[\w.-]*"|'[\w.-]*'|[\w.-]*)(?:\s+#.*)?$/;

/**
 * `.corepack.env` (corepack ≥ 0.29, beside the package.json that pins a package manager): its
 * `COREPACK_*` variables apply to every `yarn`, `pnpm` or `npm` shim run there. An allow-list of
 * `KEY=value` lines, a plain word as the value; any other key counts (corepack reads only
 * `COREPACK_*` today, a later one may read more), and so does a line it does not know (a quoted
 * value spanning lines, `export`, a control character).
 */
export function judgeCorepackEnv(text: string): string | undefined {
  const control = CONTROL.exec(text.replace(/\r\n/g, '\n'));
  if (control) return `a control character (${shown(control[0])})`;
  for (const line of settingLines(text)) {
    const match = /^([A-Za-z_][\w]*)\s*=\s*(.*)$/.exec(line);
    if (!match) return `a line corepack may read otherwise (${shown(line)})`;
    if (!COREPACK_HARMLESS.has(match[1]!)) return `a \`${match[1]}\` variable`;
    if (!HARMLESS_VALUE.test(match[2]!)) return `a \`${match[1]}\` value this does not know (${shown(match[2]!)})`;
  }
  return undefined;
}

/**
 * A file whose every variable a tool sets for what it runs: Yarn 4's `.env.yarn` (every script
 * and binary yarn starts: `NODE_OPTIONS=--require ./x.js`), RVM's `.ruby-env` and rbenv-vars'
 * `.rbenv-vars` (every ruby, at `cd` for RVM). Any variable counts, as in mise's `[env]`: too
 * many of them name programs (`PATH`, `NODE_OPTIONS`, `RUBYOPT`, `LD_PRELOAD`, `GIT_SSH_COMMAND`).
 */
export function judgeInjectedEnv(text: string): string | undefined {
  const line = settingLines(text)[0];
  return line === undefined ? undefined : `a variable for what the tool runs (${shown(line.split('=')[0]!.trim())})`;
}

/**
 * RVM's `.versions.conf` (`key=value`, read at `cd`): `ruby=` and `ruby-gemset=` select a
 * version; `env-PATH=`, `ruby-gem-install=`, `ruby-bundle-install=` and any other key count.
 */
export function judgeRvmVersionsConf(text: string): string | undefined {
  const control = CONTROL.exec(text.replace(/\r\n/g, '\n'));
  if (control) return `a control character (${shown(control[0])})`;
  for (const line of settingLines(text)) {
    const match = /^(ruby|ruby-gemset)\s*=\s*(\S*)$/.exec(line);
    if (!match) return `a setting RVM runs or exports (${shown(line.split('=')[0]!.trim())})`;
    const found = versionWordOffence(match[2]!);
    if (found !== undefined) return found;
  }
  return undefined;
}
