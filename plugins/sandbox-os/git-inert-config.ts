/**
 * Which git configuration runs nothing: the keys `git init`, `clone`, `submodule` and `worktree`
 * write, and a few more of the same kind. Any other key, or a line that does not parse, counts as
 * one that may run a program on the host (git-sweep.ts sets its file aside).
 */
import { parseGitConfig } from '../../sdk/git-config-paths.js';

/** Configuration keys that run nothing (section.*.name for subsections). */
const INERT_KEYS = new Set([
  'core.repositoryformatversion', 'core.filemode', 'core.bare', 'core.logallrefupdates', 'core.ignorecase', 'core.precomposeunicode',
  'core.symlinks', 'core.worktree', 'core.sparsecheckout', 'core.sparsecheckoutcone', 'core.autocrlf', 'core.eol', 'core.safecrlf',
  'core.quotepath', 'core.compression', 'core.loosecompression', 'core.checkstat', 'core.trustctime', 'core.untrackedcache',
  'core.splitindex', 'core.commitgraph', 'core.multipackindex', 'core.abbrev', 'core.preloadindex', 'core.longpaths',
  'core.sharedrepository', 'core.bigfilethreshold',
  'remote.*.url', 'remote.*.pushurl', 'remote.*.fetch', 'remote.*.push', 'remote.*.tagopt', 'remote.*.prune', 'remote.*.prunetags',
  'remote.*.mirror',
  'branch.*.remote', 'branch.*.merge', 'branch.*.rebase', 'branch.*.pushremote', 'branch.*.description',
  'submodule.*.url', 'submodule.*.active', 'submodule.*.branch', 'submodule.*.ignore', 'submodule.*.shallow', 'submodule.*.fetchrecursesubmodules',
  'user.name', 'user.email', 'user.signingkey', 'user.useconfigonly',
  'extensions.worktreeconfig', 'extensions.objectformat', 'extensions.preciousobjects', 'extensions.noop',
  'init.defaultbranch', 'pull.rebase', 'pull.ff', 'push.default', 'push.autosetupremote', 'fetch.prune', 'fetch.recursesubmodules',
  'gc.auto', 'gc.autodetach', 'index.version', 'index.sparse', 'lfs.repositoryformatversion', 'maintenance.auto', 'maintenance.strategy',
]);
// Not here, though a clone may write them: a partial clone's promisor remote (`extensions.partialclone`,
// `remote.*.promisor`, `remote.*.partialclonefilter`) makes the user's next `git status` fetch the
// objects it lacks, from a URL that can carry what the command read; `lfs.url` is where git-lfs
// sends its requests. They count as running something, as they do for MewCode's own status
// (environment/git-safety.ts).

function inertKey(key: string, value: string): boolean {
  if (INERT_KEYS.has(key)) return true;
  const parts = key.split('.');
  if (parts.length < 3) return false;
  const generic = `${parts[0]}.*.${parts[parts.length - 1]}`;
  if (generic === 'submodule.*.update') return !value.trim().startsWith('!');
  return INERT_KEYS.has(generic);
}


/**
 * The `core.worktree` values of a config file's text. The key itself runs nothing, but it names
 * where git checks files out: a planted one outside the project makes the user's next checkout or
 * reset in that repository write there (git-sweep.ts judges where each leads).
 */
export function worktreesOf(text: string): string[] {
  return parseGitConfig(text).filter(({ key }) => key === 'core.worktree').map(({ value }) => value);
}

/** What in `text` (a config file's text) would run a program; undefined when nothing does. */
export function configOffence(text: string): string | undefined {
  const unparsed: string[] = [];
  const bad = parseGitConfig(text, unparsed).filter(({ key, value }) => !inertKey(key, value)).map(({ key }) => key);
  // A line MewCode cannot read may be one git reads as a key: fail closed.
  if (unparsed.length > 0) bad.push(`a line that does not parse (${JSON.stringify(unparsed[0]!.slice(0, 40))})`);
  return bad.length > 0 ? [...new Set(bad)].join(', ') : undefined;
}
