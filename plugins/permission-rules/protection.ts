/**
 * The protected-path guard of the rules layer (A14), run on every call before the
 * rules' own verdict can allow it and in every mode (stage 300 comes before the mode layer that
 * allows everything in bypassPermissions). A file-writing tool's path, and every file a bash
 * command visibly writes (redirections, tee, cp/mv/install/ln destinations, mv/rm sources,
 * `sed -i`, `dd of=`, `git config`…, each resolved from the directories the segment may run
 * in; without the OS sandbox also every protected path named on the line of a program not known to
 * only read its operands, possible-writes.ts), is checked against protected-paths.ts; a file tool's write also against the inside of
 * every git directory (git-directories.ts) and what a protected name leads to through a link
 * (linked-protected.ts), and to a toolchain file by what it would leave there (written-content.ts). A hit asks — unless an allow rule of the user's
 * own (~/.mewcode/settings.yaml, the command line, a saved approval; never a project file, trusted
 * or not) names exactly that file. A write whose target cannot be known (`> "$OUT"`, a relative target after
 * `cd "$X"`, an interpreter program naming `.mewcode`, `.git`, `.claude`, `.mcp.json`) asks too;
 * so does one on a line where another segment may make a link first (the link is not there yet:
 * sdk/shell-command/link-makers.ts) and one through `/proc/self/cwd` and the like, which only the
 * command's own process resolves (sdk/process-paths.ts).
 */
import { constants, openSync, readdirSync, statSync } from 'node:fs';
import { readSmallFileFd } from '../../types/small-file.js';
import path from 'node:path';
import { expandHome } from '../../sdk/path-containment.js';
import { DESCRIPTOR_DEVICE, physicalWalk, readsFileOnDescriptor, throughProcessPath } from '../../sdk/process-paths.js';
import { linkMakersBesides } from '../../sdk/shell-command/link-makers.js';
import { nestedWorkTrees } from '../../sdk/nested-work-trees.js';
import { LinearRegExp } from '../../sdk/linear-regex/index.js';
import type { PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import { segmentWrites, type WriteTarget } from './command-writes.js';
import { possibleWrites } from './possible-writes.js';
import { scriptWrites } from './sed-scripts.js';
import { segmentDirectories } from './command-decision.js';
import { LAYER_NAME, type CommandParser, type ParsedCommandLike, type RulesEngine, type ShellSegmentLike } from './engine.js';
import { insideGitDirectory } from './git-directories.js';
import { linkedProtectedPath } from './linked-protected.js';
import { exactRuleFor, forms, mentionsProtectedName, protectedContent, protectedPath, protectedTree, type ProtectedHit, type ProtectedScope } from './protected-paths.js';
import { writtenContent } from './written-content.js';

export const PROTECTED_LAYER = `${LAYER_NAME}:protected`;

interface Finding {
  hit?: ProtectedHit;
  /** Why the target cannot be known. */
  unknown?: string;
}

/**
 * The project's nested repositories, walked once per project root for the process, from the first
 * command or write checked (0.6 s for 15,000 folders here, 20 ms for MewCode's own tree without
 * node_modules). Git cannot clone a `.git` into a project and a file tool cannot write one
 * (protected), so the ones that matter were there when the session began; one a sandboxed command
 * makes is judged whole by the sandbox's check after the command. Beyond the walk's bound
 * (sdk/nested-work-trees.ts) only those found are consulted.
 */
const nestedByRoot = new Map<string, Promise<readonly string[]>>();
function nestedWorkTreesOf(projectRoot: string): Promise<readonly string[]> {
  let found = nestedByRoot.get(projectRoot);
  if (!found) {
    found = nestedWorkTrees(projectRoot).then(({ workTrees }) => workTrees);
    nestedByRoot.set(projectRoot, found);
  }
  return found;
}

export async function checkProtectedPaths(
  request: PermissionRequest,
  engine: RulesEngine,
  context: { homeDir: string; parseCommand: CommandParser; sandboxed?: boolean },
): Promise<PermissionVerdict | undefined> {
  let scope: ProtectedScope = { projectRoot: request.projectRoot, homeDir: context.homeDir };
  const target = request.target;
  let findings: Finding[] = [];
  // Begun at the first command or write, awaited by a write.
  const nested = nestedWorkTreesOf(request.projectRoot);
  if (target.kind === 'path' && request.category === 'write' && typeof target.path === 'string' && target.path !== '') {
    scope = { ...scope, nestedWorkTrees: await nested };
    const absolute = path.resolve(request.projectRoot, expandHome(target.path, context.homeDir));
    // A file tool also asks inside any git directory and through a link into a protected folder
    // (git-directories.ts, linked-protected.ts); bash's writes there are the sandbox's to keep
    // (`.git` pinned, its git review and settings sweep after each command).
    const content = (): string | undefined => writtenContent(request.toolName, request.input, absolute);
    // Where the path led when the tool was asked (a file tool writes there or nowhere), judged too:
    // a link on its way may have been swapped since, so this layer's own look may find another place.
    const places = typeof target.real === 'string' && target.real !== absolute ? [absolute, target.real] : [absolute];
    for (const place of places) {
      const hit = protectedPath(place, scope) ?? insideGitDirectory(place) ?? linkedProtectedPath(place, scope, content) ?? protectedContent(place, content);
      if (hit) {
        findings.push({ hit });
        break;
      }
    }
  } else if (target.kind === 'command' && typeof target.command === 'string') {
    let parsed: ParsedCommandLike;
    try {
      parsed = await context.parseCommand(target.command);
    } catch {
      return undefined; // the blacklist and the rules already treat an unparseable command as opaque
    }
    findings = commandFindings(parsed, startDirectory(request), scope, context.sandboxed === true);
  }
  const blocking = findings.filter((f) => f.unknown !== undefined || !engine.allowsExactFile(f.hit!.path, request.toolName));
  const first = blocking[0];
  if (!first) return undefined;
  if (first.hit) {
    const rule = exactRuleFor(first.hit.path, scope);
    if (first.hit.byContent) {
      return {
        decision: 'ask',
        layer: PROTECTED_LAYER,
        reason: `${first.hit.path} is ${first.hit.what}, and this write would make it name ${first.hit.byContent}: a tool on your machine runs what such a file names (or puts it on PATH) when the folder is entered or the tool is asked anything. That always asks, in every permission mode (a plain version does not); only an allow rule of yours naming exactly this file passes it (in ~/.mewcode/settings.yaml or --allowedTools): ${rule}`,
      };
    }
    return {
      decision: 'ask',
      layer: PROTECTED_LAYER,
      reason: `${first.hit.path} is a protected path (${first.hit.what}): changing it always asks, in every permission mode; only an allow rule of yours naming exactly this file passes it (in ~/.mewcode/settings.yaml or --allowedTools; a project's own settings cannot unlock it): ${rule}`,
    };
  }
  return {
    decision: 'ask',
    layer: PROTECTED_LAYER,
    reason: `${first.unknown}, so it may change a protected path (MewCode settings, .git/config, .git/hooks, .claude, .mcp.json): this always asks, in every permission mode`,
  };
}

function startDirectory(request: PermissionRequest): string {
  const workdir = (request.input as Record<string, unknown> | undefined)?.workdir;
  return typeof workdir === 'string' && workdir !== '' ? path.resolve(request.projectRoot, workdir) : request.projectRoot;
}

const HARMLESS = /^\/dev\/(?:null|tty)$/;

/** `sandboxed`: the OS sandbox keeps the protected paths (pinned read-only), so a link the line makes cannot reach them. */
function commandFindings(parsed: ParsedCommandLike, startDir: string, scope: ProtectedScope, sandboxed: boolean): Finding[] {
  const findings: Finding[] = [];
  // `/dev/stdout`, `/dev/fd/3` reopen a descriptor: harmless unless the line put a file read on one.
  const descriptorsHarmless = !readsFileOnDescriptor(parsed.segments);
  // A link another segment makes is not there yet when this runs (sdk/shell-command/link-makers.ts).
  const linkers = sandboxed ? [] : linkMakersBesides(parsed.segments);
  for (const [index, segment] of parsed.segments.entries()) {
    if (segment.inlineCode && mentionsProtectedName(segment.inlineCode.code)) {
      findings.push({ unknown: `the ${segment.inlineCode.interpreter} program in "${short(segment.text)}" names a protected location and what it writes cannot be seen` });
    }
    // Without the sandbox, a protected path merely named on the line of a program that may write it counts too (possible-writes.ts).
    const program = segment.argv[0] ?? '';
    const writes: Judged[] = [...segmentWrites(segment), ...(sandboxed ? [] : possibleWrites(segment.argv).map((w) => ({ ...w, namedBy: program })))];
    if (writes.length === 0) continue;
    const dirs = segmentDirectories(segment.dirs, startDir, scope.homeDir);
    for (const write of writes) findings.push(...judgeWrite(write, segment, dirs, linkers[index], startDir, scope, descriptorsHarmless));
  }
  // A program the analysis does not know may run the command its operands spell
  // (sdk/shell-command/plain-programs.ts): a protected path that command would write asks too.
  const tails = parsed.segments.flatMap(({ mayRunOperands, ...segment }) => (mayRunOperands ?? []).map((at) => ({ ...segment, argv: segment.argv.slice(at), redirects: [] })));
  if (tails.length > 0) findings.push(...commandFindings({ ...parsed, segments: tails }, startDir, scope, sandboxed).filter((f) => f.hit !== undefined));
  return findings;
}

/** A write target, and for one only named on the line (possible-writes.ts) the program that names it. */
type Judged = WriteTarget & { namedBy?: string };

/** Bound on a `sed -f` script read for its `w` commands. */
const MAX_SED_SCRIPT = 256 * 1024;

/** The findings for one write target of a segment run from `dirs` (undefined: not known). */
function judgeWrite(write: Judged, segment: ShellSegmentLike, dirs: readonly string[] | undefined, linker: string | undefined, startDir: string, scope: ProtectedScope, descriptorsHarmless: boolean): Finding[] {
  const findings: Finding[] = [];
  const target = expandHomeSpelling(write.target, scope.homeDir);
  if (HARMLESS.test(target) || (descriptorsHarmless && DESCRIPTOR_DEVICE.test(target))) return findings;
  const definite = write.definiteOnly === true;
  if (linker !== undefined && !definite) {
    findings.push({ unknown: `"${short(segment.text)}" writes to ${JSON.stringify(write.target)} on a line where "${short(linker)}" may make a link on its way first (a link made by the command is not there when it is checked)` });
    return findings;
  }
  // A brace expansion (`~/.bash{rc,_profile}`) names several paths bash computes: not judged one by one.
  if (/[$`]/.test(target) || /\{[^}]*(?:,|\.\.)[^}]*\}/.test(target) || target === '' || target.startsWith('~')) {
    if (!definite) findings.push({ unknown: `"${short(segment.text)}" writes to ${JSON.stringify(write.target)}, which is computed at run time` });
    return findings;
  }
  const bases = path.isAbsolute(target) ? [startDir] : write.inRepository ? [scope.projectRoot] : dirs;
  if (bases === undefined) {
    if (!definite || mentionsProtectedName(target)) findings.push({ unknown: `"${short(segment.text)}" writes to the relative path ${JSON.stringify(write.target)} after a change to a directory that cannot be determined` });
    return findings;
  }
  for (const base of bases) {
    // A glob names the existing paths it matches, or itself when it matches none (as in bash).
    const pattern = path.resolve(base, target);
    if (write.kind === 'sed-script') {
      findings.push(...sedScriptFindings(write.target, pattern, segment, dirs, startDir, scope, descriptorsHarmless));
      continue;
    }
    // `/proc/self/cwd/…` (or a link there) is the command's directory, not MewCode's: never
    // resolved here. Walked as written: `link/../x` is beside the link's target (the kernel's `..`).
    const walked = physicalWalk(path.isAbsolute(target) ? target : `${base}/${target}`);
    if (walked.through !== undefined) {
      if (!definite) findings.push({ unknown: `"${short(segment.text)}" writes to ${JSON.stringify(write.target)} through ${walked.through}, which only the command's own process can resolve` });
      continue;
    }
    const places = expandGlob(pattern);
    if (target.split('/').includes('..') && !places.includes(walked.physical)) places.push(walked.physical);
    for (const absolute of places) {
      const matched = absolute === pattern ? undefined : throughProcessPath(absolute);
      if (matched !== undefined) {
        if (!definite) findings.push({ unknown: `"${short(segment.text)}" writes to ${JSON.stringify(write.target)} through ${matched}, which only the command's own process can resolve` });
        continue;
      }
      const hit = hitFor(write, absolute, scope);
      if (hit) findings.push({ hit: write.namedBy === undefined ? hit : { ...hit, what: `${hit.what}; named on the line of ${JSON.stringify(short(write.namedBy))}, which is not known to only read what its command line names, so it may write there` } });
    }
  }
  return findings;
}

function hitFor(write: WriteTarget, absolute: string, scope: ProtectedScope): ProtectedHit | undefined {
  switch (write.kind) {
    case 'file':
      return protectedPath(absolute, scope);
    case 'tree':
      return protectedTree(absolute, scope);
    case 'directory':
      return protectedPath(absolute, scope) ?? protectedInside(absolute, scope);
    case 'prefix':
      // `split x .git/hooks/pre-` writes `.git/hooks/pre-aa`; `--prefix=.git/` puts whole paths below `.git`.
      return protectedPath(absolute, scope) ?? protectedPath(`${absolute}x`, scope) ?? protectedInside(write.target.endsWith('/') ? absolute : path.dirname(absolute), scope);
    default: {
      const whole = write.kind === 'destination' && !isDirectory(absolute);
      return (whole ? protectedTree : protectedPath)(absolute, scope) ?? (write.landing ?? []).map((name) => protectedTree(path.join(absolute, name), scope)).find((h) => h !== undefined);
    }
  }
}

/** A folder holding protected files (`.git`, `.mewcode`, `~/.mewcode`), the project root and the home folder themselves excepted. */
function protectedInside(absolute: string, scope: ProtectedScope): ProtectedHit | undefined {
  const roots = [...forms(scope.projectRoot), ...forms(scope.homeDir)];
  if (forms(absolute).some((form) => roots.includes(form))) return undefined;
  return protectedTree(absolute, scope);
}

/** The writes a `sed -f` script names with `w`; one that cannot be read asks. */
function sedScriptFindings(written: string, absolute: string, segment: ShellSegmentLike, dirs: readonly string[] | undefined, startDir: string, scope: ProtectedScope, descriptorsHarmless: boolean): Finding[] {
  let text: string;
  try {
    if (written === '-') throw new Error('not a readable script');
    // Non-blocking, a regular file only, capped: a FIFO or a /dev/zero link named as the script must not hold the check.
    text = readSmallFileFd(openSync(absolute, constants.O_RDONLY | constants.O_NONBLOCK), written);
    if (text.length > MAX_SED_SCRIPT) throw new Error('too long');
  } catch {
    return [{ unknown: `the sed script ${JSON.stringify(written)} of "${short(segment.text)}" cannot be read, so the files its w commands write cannot be seen` }];
  }
  return scriptWrites(text).flatMap((target) => judgeWrite({ target, kind: 'file', definiteOnly: true }, segment, dirs, undefined, startDir, scope, descriptorsHarmless));
}

function isDirectory(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}

/** `~`, `$HOME`, `${HOME}` at the start of a target, expanded. */
function expandHomeSpelling(target: string, homeDir: string): string {
  const home = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(target);
  return home ? homeDir + target.slice(home[0].length) : target;
}

/** Entries a glob may match, bounded; beyond the bound the walk stops (what was found is judged). */
const MAX_GLOB_MATCHES = 256;

/**
 * Bash pathname expansion of an absolute pattern against the file system (`*`, `?`, `[…]`; a
 * leading dot only matched explicitly): the matching paths, or the pattern itself when nothing
 * matches (bash then uses the text as the file name).
 */
export function expandGlob(pattern: string): string[] {
  if (!/[*?[]/.test(pattern)) return [pattern];
  let current = ['/'];
  for (const part of pattern.split('/').filter((p) => p !== '')) {
    const next: string[] = [];
    for (const dir of current) {
      if (!/[*?[]/.test(part)) {
        next.push(path.join(dir, part));
        continue;
      }
      const matcher = globRegex(part);
      let names: string[] = [];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) if (matcher.test(name) && next.length < MAX_GLOB_MATCHES) next.push(path.join(dir, name));
    }
    current = next;
  }
  return current.length > 0 ? current : [pattern];
}

/** One name's glob as a linear-time test: the pattern is the command's and the names the repository's. */
function globRegex(part: string): { test(name: string): boolean } {
  let source = part.startsWith('.') ? '' : '(?!\\.)';
  for (let i = 0; i < part.length; i++) {
    const ch = part[i]!;
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else if (ch === '[') {
      const close = part.indexOf(']', i + 2);
      if (close === -1) source += '\\[';
      else {
        const body = part.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = close;
      }
    } else source += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  try {
    return new LinearRegExp(`^${source}$`);
  } catch {
    return /^/; // a bracket bash accepts and JavaScript does not: assume it matches anything
  }
}

function short(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
