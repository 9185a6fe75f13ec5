// A user's MewCode configuration, as README.md shows one: the provider in ~/.mewcode/config.yaml and
// permission rules in ~/.mewcode/settings.yaml. `npm run check-deps` (scripts/check-deps.mjs) runs
// the built CLI once with it, and bench b's configured row measures it (scripts/bench/first-request.mjs).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The rules: a command prefix, a path glob, a command to ask about, a denied file. */
export const USER_SETTINGS = 'permissions:\n  allow: ["Bash(npm run test:*)", "Edit(src/**)"]\n  ask: ["Bash(git push:*)"]\n  deny: ["Read(./.env)"]\n';

/** Writes the two files in `home`; the provider entry points at the server at `url`. */
export function writeUserConfig(home, { protocol, url, model }) {
  const dir = path.join(home, '.mewcode');
  mkdirSync(dir, { recursive: true });
  const baseUrl = protocol === 'openai' ? `${url}/v1` : url;
  writeFileSync(path.join(dir, 'config.yaml'), `providers:\n  - name: work\n    protocol: ${protocol}\n    model: ${model}\n    base_url: ${baseUrl}\n    max_tokens: 16384\n`);
  writeFileSync(path.join(dir, 'settings.yaml'), USER_SETTINGS);
}
