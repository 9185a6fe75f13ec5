/**
 * The Read rules applied to bash (a `Read(…)` deny or ask rule covers what a command visibly
 * reads, as it covers read_file, glob and grep). For every segment (command-reads.ts):
 * - a file it names — operand, `--opt=value`, `< file`, a write target, a glob matching it —
 *   is judged as read_file would judge it (symlinks resolved), from every directory the segment
 *   may run in: a deny denies, an ask asks;
 * - a directory it reads whole (`grep -r`, `cp -r`, `tar -c`, `find -exec`…) that holds a file
 *   or folder a rule names gets that rule's verdict; one that may hold a match of a glob or regex
 *   rule asks;
 * - git: a path named in `rev:path`, `:path`, pathspec magic or `-- path` of a subcommand that
 *   prints or copies content is judged as a read of the file; and a subcommand that prints file
 *   content or diffs from the repository's objects (`show`, `log -p`, `diff`, `cat-file`, `grep`,
 *   `blame`, `archive`, `format-patch`, `stash show -p`, `clone`…) asks when a rule names a path
 *   inside that repository (or where the repository is computed): the objects may hold the file
 *   whatever it is named. Metadata commands (`status`, `log`, `branch`, `add`, `commit`) are not
 *   reads.
 * - program text given to an interpreter that contains a denied file's name asks.
 * What is not seen: a file name computed at run time (`cat "$f"`, `xargs cat`), a program that
 * opens the file itself without naming it (`python3 x.py`), a copy made by an earlier command. With the OS sandbox
 * on, the files these rules deny are hidden from every command (sandbox-os), git's objects aside.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isPathWithin } from '../../types/path-within.js';
import { expandHome } from '../../sdk/path-containment.js';
import { throughProcessPath } from '../../sdk/process-paths.js';
import { linkMakersBesides } from '../../sdk/shell-command/link-makers.js';
import type { PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import { segmentReads, type SegmentReads } from './command-reads.js';
import { segmentDirectories } from './command-decision.js';
import { LAYER_NAME, type CommandParser, type ParsedCommandLike, type RulesEngine } from './engine.js';
import type { CompiledRule } from './rule-set.js';

type GlobModule = typeof import('../../sdk/linear-regex/picomatch.js');
let globModule: GlobModule | undefined;

/** picomatch behind the linear-time guard: the glob is the command's, the model's. */
async function loadGlobs(): Promise<GlobModule> {
  globModule ??= await import('../../sdk/linear-regex/picomatch.js');
  return globModule;
}

interface Context {
  homeDir: string;
  parseCommand: CommandParser;
}

interface Finding {
  decision: 'deny' | 'ask';
  reason: string;
  scope: string;
}

/** A shell glob in a word: `*`, `?`, `[…]`, or a brace list. */
const GLOB = /[*?[]|\{[^}]*,[^}]*\}/;

export async function checkCommandReads(request: PermissionRequest, engine: RulesEngine, context: Context): Promise<PermissionVerdict | undefined> {
  const target = request.target;
  if (target.kind !== 'command' || typeof target.command !== 'string') return undefined;
  const rules = engine.readRules();
  if (rules.length === 0) return undefined; // the common case: no Read rule at all
  let parsed: ParsedCommandLike;
  try {
    parsed = await context.parseCommand(target.command);
  } catch {
    return undefined; // an unparseable command is already refused or asked by the rules
  }
  const judge = new ReadJudge(engine, rules, request.projectRoot, context.homeDir, startDirectory(request));
  const findings: Finding[] = [];
  // A link another segment makes is not there yet (sdk/shell-command/link-makers.ts): what this one reads is unknown.
  const linkers = linkMakersBesides(parsed.segments);
  for (const [index, segment] of parsed.segments.entries()) {
    const reads = segmentReads(segment);
    const dirs = segmentDirectories(segment.dirs, judge.startDir, context.homeDir);
    const label = segment.text.length > 120 ? `${segment.text.slice(0, 120)}…` : segment.text;
    const linker = linkers[index];
    if (linker !== undefined && (reads.named.length > 0 || reads.trees.length > 0)) {
      findings.push(judge.unknownPlace(`${JSON.stringify(label)} reads ${JSON.stringify(reads.named[0] ?? reads.trees[0])} on a line where ${JSON.stringify(linker)} may first make a link on its way, so where it reads cannot be known`));
    }
    findings.push(...(await judge.segment(reads, dirs, label)));
    if (segment.inlineCode) findings.push(...judge.programText(segment.inlineCode.code, label));
    const deny = findings.find((f) => f.decision === 'deny');
    if (deny) return verdict(deny);
  }
  const first = findings[0];
  return first && verdict(first);
}

function verdict(finding: Finding): PermissionVerdict {
  return { decision: finding.decision, layer: `${LAYER_NAME}:${finding.scope}`, reason: finding.reason };
}

function startDirectory(request: PermissionRequest): string {
  const workdir = (request.input as Record<string, unknown> | undefined)?.workdir;
  return typeof workdir === 'string' && workdir !== '' ? path.resolve(request.projectRoot, workdir) : request.projectRoot;
}

type ReadRule = ReturnType<RulesEngine['readRules']>[number];

class ReadJudge {
  constructor(
    private readonly engine: RulesEngine,
    private readonly rules: readonly ReadRule[],
    private readonly projectRoot: string,
    private readonly homeDir: string,
    readonly startDir: string,
  ) {}

  async segment(reads: SegmentReads, dirs: string[] | undefined, label: string): Promise<Finding[]> {
    const found: Finding[] = [];
    // Unknown directory (after `cd "$X"`): a relative name is tried from the start and the project root.
    const bases = dirs ?? [this.startDir, this.projectRoot];
    for (const name of reads.named) found.push(...(await this.named(name, bases, dirs === undefined, label)));
    for (const word of reads.computed) found.push(...(await this.computed(word, bases, label)));
    for (const tree of reads.trees) for (const base of bases) found.push(...this.tree(this.resolve(tree, base), reads.skipsHidden === true, label));
    if (reads.git) found.push(...this.git(reads.git, bases, label));
    return found;
  }

  private resolve(name: string, base: string): string {
    return path.resolve(base, expandHome(name, this.homeDir));
  }

  private async named(name: string, bases: readonly string[], unknownDir: boolean, label: string): Promise<Finding[]> {
    const found: Finding[] = [];
    if (/^~[^/]/.test(name)) {
      // `~+` is where it runs; `~-` (the previous directory) and `~user` are not known here.
      if (/^~\+(?:\/|$)/.test(name)) return this.named(name.replace(/^~\+/, '.'), bases, unknownDir, label);
      return this.computed(name, [], label);
    }
    for (const base of bases) {
      const absolute = this.resolve(name, base);
      // `/proc/self/cwd/…` (or a link there) is the command's directory, never resolved in MewCode's process.
      const expanded = expandHome(name, this.homeDir);
      const through = throughProcessPath(path.isAbsolute(expanded) ? expanded : `${base}/${expanded}`);
      if (through !== undefined) found.push(this.unknownPlace(`${JSON.stringify(label)} reads ${JSON.stringify(name)} through ${through}, which only the command's own process can resolve`));
      else if (GLOB.test(name)) found.push(...(await this.glob(absolute, label)));
      else {
        const hit = this.file(absolute, label);
        if (hit) found.push(hit);
      }
    }
    if (unknownDir && !name.startsWith('/') && !name.startsWith('~')) {
      // Where it runs is unknown: a name equal to a denied file's name may be that file.
      const base = path.basename(name);
      const same = this.rules.find((r) => r.exact !== undefined && path.basename(r.exact) === base);
      if (same) found.push(this.possible(same.rule, `${JSON.stringify(label)} reads ${JSON.stringify(name)} from a directory that cannot be known, which may be ${same.exact}`));
    }
    return found;
  }

  /**
   * An operand with expansions: `$PWD`, `$HOME` and `~` are known (the directory it runs in, the
   * home directory); otherwise a literal ending that names a file a rule names (`"$D"/.env`)
   * may be that file.
   */
  private async computed(word: string, bases: readonly string[], label: string): Promise<Finding[]> {
    const found: Finding[] = [];
    for (const base of bases) {
      const known = word.replace(/\$\{?PWD\}?/g, base).replace(/\$\{?HOME\}?/g, this.homeDir);
      if (!/[$`]/.test(known)) found.push(...(await this.named(known, [base], false, label)));
    }
    const tail = /[^$`}/)]*$/.exec(word.replace(/\/+$/, ''))?.[0] ?? '';
    const same = tail === '' ? undefined : this.rules.find((r) => r.exact !== undefined && path.basename(r.exact) === tail);
    if (same && found.length === 0) found.push(this.possible(same.rule, `${JSON.stringify(label)} reads ${JSON.stringify(word)}, computed at run time, which may be ${same.exact}`));
    return found;
  }

  /** read_file's verdict for this file, as a finding. */
  private file(absolute: string, label: string, how = 'reads'): Finding | undefined {
    const result = this.engine.readVerdict(absolute, this.projectRoot, this.homeDir);
    if (!result || result.decision === 'allow') return undefined;
    return { decision: result.decision, scope: result.layer.slice(LAYER_NAME.length + 1), reason: `${JSON.stringify(label)} ${how} ${absolute}: ${result.reason ?? ''}` };
  }

  /** A glob operand: every file a rule names that the glob matches (bash: `*` skips dot files). */
  private async glob(pattern: string, label: string): Promise<Finding[]> {
    const matches = (await loadGlobs()).globMatcher(pattern, { dot: false });
    const literalDir = pattern.split('/').filter((_, i, all) => !GLOB.test(all.slice(0, i + 1).join('/'))).join('/') || '/';
    const found: Finding[] = [];
    for (const { rule, exact, prefix } of this.rules) {
      if (exact !== undefined) {
        if (matches(exact)) {
          const hit = this.file(exact, label, `matches, with ${JSON.stringify(pattern)},`);
          if (hit) found.push(hit);
        }
      } else if (prefix === undefined || isPathWithin(literalDir, prefix) || isPathWithin(prefix, literalDir)) {
        found.push(this.possible(rule, `${JSON.stringify(label)} reads files matching ${JSON.stringify(pattern)}, which may include what rule "${rule.text}" covers`));
      }
    }
    return found;
  }

  /** A directory read whole: the files the rules name inside it. */
  private tree(dir: string, skipsHidden: boolean, label: string): Finding[] {
    const found: Finding[] = [];
    for (const { rule, exact, prefix } of this.rules) {
      const named = exact ?? prefix;
      if (named !== undefined && isPathWithin(dir, named)) {
        if (skipsHidden && path.relative(dir, named).split(path.sep).some((part) => part.startsWith('.'))) continue;
        const hit = exact !== undefined ? this.file(exact, label, `reads all of ${dir}, including`) : undefined;
        found.push(hit ?? { decision: rule.list === 'deny' ? 'deny' : 'ask', scope: rule.origin.scope, reason: `${JSON.stringify(label)} reads all of ${dir}, including ${named}, which ${rule.list} rule ${rule.describeOrigin()} "${rule.text}" covers; leave it out, or use the grep/glob tools, which skip it` });
      } else if (named === undefined || (exact === undefined && isPathWithin(named, dir))) {
        found.push(this.possible(rule, `${JSON.stringify(label)} reads all of ${dir}, which may hold files that rule "${rule.text}" covers`));
      }
    }
    return found;
  }

  private git(git: NonNullable<SegmentReads['git']>, bases: readonly string[], label: string): Finding[] {
    const found: Finding[] = [];
    const starts = git.repository === null ? undefined : git.repository.length > 0 ? bases.flatMap((b) => git.repository!.map((r) => this.resolve(r, b))) : [...bases];
    const tops = starts?.map(topLevel);
    for (const named of git.paths) {
      // A top-relative path (`HEAD:.env`) is judged at every work-tree top it may mean and at the
      // project root as well: without a `.git` above the start the top is a guess (fail closed).
      const roots = named.from === 'top' ? [...new Set([...(tops ?? []), this.projectRoot])] : (starts ?? [...bases]);
      for (const root of roots) {
        const hit = this.file(path.resolve(root, named.path), label, 'prints');
        if (hit) found.push(hit);
      }
    }
    if (!git.printsContent) return found;
    for (const { rule, exact, prefix } of this.rules) {
      const named = exact ?? prefix;
      const inRepository = tops === undefined || named === undefined || tops.some((top) => isPathWithin(top, named) || isPathWithin(named, top));
      if (!inRepository) continue;
      found.push(this.possible(rule, `${JSON.stringify(label)} prints file content from the git repository${tops ? ` at ${tops.join(', ')}` : ''}, which may include ${named ?? 'what'} ${named ? `(${rule.list} rule "${rule.text}")` : `rule "${rule.text}" covers`}: git's objects hold every committed version`));
    }
    return found;
  }

  /** Program text given to an interpreter that names a file a rule names (`open('.env')`): it may read it. */
  programText(code: string, label: string): Finding[] {
    const found: Finding[] = [];
    for (const { rule, exact, prefix } of this.rules) {
      const named = exact ?? prefix;
      const name = named === undefined ? undefined : path.basename(named);
      if (name === undefined || name === '' || !code.includes(name)) continue;
      found.push(this.possible(rule, `${JSON.stringify(label)} is a program that names ${JSON.stringify(name)}, which rule "${rule.text}" covers`));
    }
    return found;
  }

  /** A read whose place cannot be known: it may be what any Read rule covers (the first one is named). */
  unknownPlace(why: string): Finding {
    const rule = this.rules[0]!.rule;
    return this.possible(rule, `${why}, which may be what rule "${rule.text}" covers`);
  }

  /** A read that may include what the rule covers: it asks (a person can tell; headless it is refused). */
  private possible(rule: CompiledRule, why: string): Finding {
    return { decision: 'ask', scope: rule.origin.scope, reason: `${why}; it needs approval` };
  }
}


/** The top of the git work tree holding `dir` (the nearest ancestor with `.git`), else `dir`. */
function topLevel(dir: string): string {
  for (let at = dir; ; at = path.dirname(at)) {
    if (existsSync(path.join(at, '.git'))) return at;
    if (path.dirname(at) === at) return dir;
  }
}

