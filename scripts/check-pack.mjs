// `prepack`: refuses to pack a dist/ that is not what `npm run build` makes for the commit being
// packed. `npm test` builds without type declarations (MEWCODE_BUILD_NO_TYPES), and package.json's
// `types` and `exports` point into dist/types/, so packing after it would ship a package whose
// imports have no types; a dist/ built from another commit would ship other code than the sources.
// Reads dist/build-stamp.json, which scripts/bundle.mjs writes last. Runs only where the package is
// packed (npm pack, npm publish): installing the tarball runs no script of ours, and scripts/ is not
// in it.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const FIX = 'run `npm run build` (it emits the declarations), then pack again';

/** Why this checkout's dist/ may not be packed, or undefined. */
export function packProblem(root = '.') {
  const at = (file) => `${root}/${file}`;
  if (!existsSync(at('dist/build-stamp.json'))) return 'dist/ was not built by this checkout (no dist/build-stamp.json)';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(at('dist/build-stamp.json'), 'utf8'));
  } catch (error) {
    return `dist/build-stamp.json cannot be read: ${error.message}`;
  }
  if (stamp.types !== true) return 'dist/ was built without type declarations (MEWCODE_BUILD_NO_TYPES, as `npm test` builds)';
  if (!existsSync(at('dist/types/index.d.ts'))) return 'dist/types/index.d.ts is missing, though package.json\'s "types" points to it';
  const head = gitHead(root);
  if (head !== undefined && stamp.commit !== head) return `dist/ was built from commit ${stamp.commit ?? '(unknown)'}, not ${head}, the commit being packed`;
  return undefined;
}

/** The checkout's commit; undefined outside a git checkout. */
export function gitHead(root = '.') {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problem = packProblem();
  if (problem !== undefined) {
    process.stderr.write(`prepack: refusing to pack: ${problem}; ${FIX}.\n`);
    process.exit(1);
  }
}
