/**
 * The rules' decision for a command call (engine.ts decides paths and tool names): every segment
 * of the parsed command line, plus the whole line, each matched in the forms deny, ask and allow
 * rules see it in; then the objections to what the rules cannot see (a computed command name or
 * word, an unknown global option, commands nothing shows, a parse error, an opaque construct).
 * Loaded at the first command's check (call-checks.ts), with the parser's tables it needs.
 */
import path from 'node:path';
import { expandHome, isWithin, resolveRealSync } from '../../sdk/path-containment.js';
import { DESCRIPTOR_DEVICE, physicalWalk, readsFileOnDescriptor } from '../../sdk/process-paths.js';
import { linkMakersBesides } from '../../sdk/shell-command/link-makers.js';
import type { PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import { allowTextOf, looksThrough } from './allow-wrappers.js';
import { ruleForms } from './command-forms.js';
import { mayMatchAt, unknownWords } from './computed-words.js';
import { LAYER_NAME, combine, evaluate, quote, verdictFor, type DecideCommand, type ParsedCommandLike, type ShellSegmentLike, type Unit } from './engine.js';
import { computedWord } from './global-options.js';
import type { RuleList } from './rule-syntax.js';
import type { CompiledRule } from './rule-set.js';

/** A command call, given the rules that concern its tool (RulesEngine.check). */
export const decideCommand: DecideCommand = async (applicable, command, request, context) => {
  const { projectRoot } = request;
  const { homeDir } = context;
  const startDir = startDirectory(request);
  let parsed: ParsedCommandLike;
  try {
    parsed = await context.parseCommand(command);
  } catch (error) {
    parsed = { segments: [], parseError: (error as Error).message, hasFunctionDefinition: false, raw: command };
  }
  const raw = command.trim();
  const whole: Unit = { label: raw, matches: (rule) => rule.matchesCommand(raw) };
  const wholeDecision = evaluate(applicable, whole);
  // With a parse error (or an opaque construct) the segments are best-effort, or not all the
  // command may run: they can still deny or ask, never allow.
  const writes: WriteCheck = { projectRoot, homeDir, startDir, descriptorsHarmless: !readsFileOnDescriptor(parsed.segments) };
  const linkers = linkMakersBesides(parsed.segments);
  const segmentDecisions = parsed.segments.map((segment, i) => evaluate(applicable, segmentUnit(segment, { ...writes, linkedBy: linkers[i] })));
  const verifiable = parsed.parseError === undefined && parsed.opaque === undefined && !parsed.hasFunctionDefinition && parsed.segments.length > 0;

  const objection =
    combine([wholeDecision, ...segmentDecisions], { allowed: false }) ??
    computedNameObjection(applicable, parsed.segments) ??
    computedWordObjection(applicable, parsed.segments, raw) ??
    unknownGlobalOptionObjection(applicable, parsed.segments) ??
    unknownCommandsObjection(applicable, parsed.segments) ??
    operandCommandObjection(applicable, parsed.segments, writes) ??
    (parsed.parseError !== undefined ? unparsedObjection(applicable, parsed.parseError) : undefined) ??
    (parsed.opaque !== undefined ? opaqueObjection(applicable, parsed.opaque) : undefined);
  if (objection) return objection;
  if (!verifiable) return undefined;
  if (wholeDecision?.decision === 'allow' && wholeDecision.rule.exact) return verdictFor('allow', [wholeDecision]);
  // A wrapper allow rules look through (`timeout 5 npm test`: allow-wrappers.ts) needs no allow
  // of its own: the command it runs is a segment of its own, and that one must be allowed. The
  // command of a loosely read runner an allow rule allows (`Bash(npx jest:*)`, `Bash(uv run:*)`)
  // needs none either: the rule's author allowed what the runner runs.
  const ranByAllowed = (i: number): boolean => {
    const runner = parsed.segments[i]!.ranBy;
    return runner !== undefined && segmentDecisions[runner]?.decision === 'allow';
  };
  const needed = segmentDecisions.filter((decision, i) => decision !== undefined || (!looksThrough(parsed.segments[i]!, parsed.segments) && !ranByAllowed(i)));
  return combine(needed, { allowed: true });
};

/** Where a command starts: the bash call's `workdir` (relative to the project root), else the root. */
function startDirectory(request: PermissionRequest): string {
  const workdir = (request.input as Record<string, unknown> | undefined)?.workdir;
  return typeof workdir === 'string' && workdir !== '' ? path.resolve(request.projectRoot, workdir) : request.projectRoot;
}

/** A command name bash computes at run time (an expansion, a glob, a brace list): no rule can see the verb. */
export function computedCommandName(word: string | undefined): boolean {
  if (word === undefined || word === '[' || word === '[[') return false; // the test builtin
  return computedWord(word);
}

/** With a deny (or ask) rule for the tool, a command that does not parse cannot be checked against it: denied (asked). */
function unparsedObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], parseError: string): PermissionVerdict | undefined {
  for (const list of ['deny', 'ask'] as const) {
    const rule = applicable.flatMap((lists) => lists[list])[0];
    if (!rule) continue;
    return {
      decision: list,
      layer: `${LAYER_NAME}:${rule.origin.scope}`,
      reason: `the command does not parse (${parseError}), so ${list} rule ${rule.describeOrigin()} "${rule.text}" cannot be checked against it; fix the syntax`,
    };
  }
  return undefined;
}

/** With a deny (or ask) rule for the tool, a segment whose verb is computed at run time is denied (asked). */
function computedNameObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[]): PermissionVerdict | undefined {
  const computed = segments.find((s) => computedCommandName(s.argv[0]));
  return computed && unseenObjection(applicable, (list, rule) =>
    `the command name ${quote(computed.argv[0]!)} in ${quote(computed.text)} is computed at run time, so ${list} rule ${rule.describeOrigin()} "${rule.text}" cannot be checked against it; write the command name literally`);
}

/**
 * A segment with a word after the command name that the text does not show (computed at run time,
 * or a subcommand renamed by a git alias: computed-words.ts): a deny (ask) rule that may match
 * whatever that word turns out to be denies (asks). `git $(echo push) x` is `git push x` to
 * `Bash(git push *)`, `rm -rf $X` may be `rm -rf /`.
 */
function computedWordObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[], line: string): PermissionVerdict | undefined {
  for (const segment of segments) {
    const unknown = unknownWords(segment.argv, line);
    if (unknown.length === 0) continue;
    for (const list of ['deny', 'ask'] as const) {
      for (const lists of applicable) {
        for (const rule of lists[list]) {
          const found = unknown.find((u) => mayMatchAt(rule, u.words, u.at));
          if (!found) continue;
          return {
            decision: list,
            layer: `${LAYER_NAME}:${rule.origin.scope}`,
            reason:
              `in ${quote(segment.text)} ${found.why}, so what runs may be what ${list} rule ${rule.describeOrigin()} "${rule.text}" names ` +
              'and the rule cannot be checked against it; write the command out literally',
          };
        }
      }
    }
  }
  return undefined;
}

/**
 * A multiplexer (git, npm, cargo, docker…) with a global option the tables do not know before
 * its subcommand: the subcommand cannot be found (the option may take the next word), so any deny
 * or ask rule naming the program with a subcommand (`git push`) asks, as a computed name would
 * deny. An ask, not a deny: the command is written out and a person can read it.
 */
function unknownGlobalOptionObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[]): PermissionVerdict | undefined {
  for (const segment of segments) {
    const name = segment.argv[0];
    if (name === undefined) continue;
    const base = name.slice(name.lastIndexOf('/') + 1);
    const unknown = ruleForms([base, ...segment.argv.slice(1)]).unknownOption;
    if (!unknown) continue;
    for (const list of ['deny', 'ask'] as const) {
      const rule = applicable.flatMap((lists) => lists[list]).find((r) => namesProgram(r, unknown.program));
      if (!rule) continue;
      return {
        decision: 'ask',
        layer: `${LAYER_NAME}:${rule.origin.scope}`,
        reason:
          `${quote(segment.text)} has the option ${quote(unknown.option)} before its subcommand, which is not known, so the subcommand ` +
          `cannot be found and ${list} rule ${rule.describeOrigin()} "${rule.text}" may apply: it needs approval (refused where nobody can approve)`,
      };
    }
  }
  return undefined;
}

/** A rule whose pattern begins with the program and a further word (a regex: mentions it). */
function namesProgram(rule: CompiledRule, program: string): boolean {
  const pattern = rule.parsed.pattern;
  if (!pattern) return false; // a rule for every command already matched the segment itself
  if (pattern.kind === 'regex') return pattern.body.includes(program);
  return pattern.body.startsWith(`${program} `);
}

/** With a deny (or ask) rule for the tool, a segment that runs commands nothing shows is denied (asked). */
function unknownCommandsObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[]): PermissionVerdict | undefined {
  const hidden = segments.find((s) => s.unknownCommands !== undefined);
  return hidden && unseenObjection(applicable, (list, rule) =>
    `${quote(hidden.text)} runs commands that cannot be seen (${hidden.unknownCommands}), so ${list} rule ${rule.describeOrigin()} "${rule.text}" cannot be checked against them; write the commands out`);
}

/**
 * A program the analysis does not know (or reads only loosely) may run the command its operands
 * spell (`prlimit`-like runners, a project's `./run.sh "$@"`): when a deny or ask rule would match
 * a command starting at one of its later words (ShellSegment.mayRunOperands), it asks. Not a
 * deny: `frob rm` may well print something about rm, and a person can read it; where nobody can
 * be asked (headless runs) the ask is refused, so the rule holds there.
 */
function operandCommandObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], segments: readonly ShellSegmentLike[], writes: WriteCheck): PermissionVerdict | undefined {
  for (const segment of segments) {
    for (const at of segment.mayRunOperands ?? []) {
      const argv = segment.argv.slice(at);
      const unit = segmentUnit({ argv, text: argv.join(' '), redirects: [], assignments: [], ...(segment.dirs !== undefined ? { dirs: segment.dirs } : {}) }, writes);
      for (const list of ['deny', 'ask'] as const) {
        const rule = applicable.flatMap((lists) => lists[list]).find((r) => unit.matches(r, list));
        if (!rule) continue;
        return {
          decision: 'ask',
          layer: `${LAYER_NAME}:${rule.origin.scope}`,
          reason:
            `${quote(segment.text)} may run ${quote(argv.join(' '))} (its program is not one the analysis knows not to run its operands), which ${list} rule ` +
            `${rule.describeOrigin()} "${rule.text}" names: it needs approval (refused where nobody can approve)`,
        };
      }
    }
  }
  return undefined;
}

/**
 * With a deny (or ask) rule for the tool, a command the parser cannot see through (interpreter
 * code on the command line, arithmetic or a prompt string over run-time values, `eval`,
 * command-running options…) may run what the rule names: it asks. Not a deny: such constructs are
 * everyday (`python3 -c …`, `for ((…))`) and a person can read the command; where nobody can be
 * asked (headless runs) an ask is refused, so the rule holds there as a deny.
 */
function opaqueObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], opaque: string): PermissionVerdict | undefined {
  const rule = applicable.flatMap((lists) => lists.deny)[0] ?? applicable.flatMap((lists) => lists.ask)[0];
  if (!rule) return undefined;
  const shown = opaque.length > 160 ? `${opaque.slice(0, 160)}…` : opaque;
  return {
    decision: 'ask',
    layer: `${LAYER_NAME}:${rule.origin.scope}`,
    reason:
      `what this command runs cannot be fully seen (${shown}), so it may do what ${rule.list} rule ${rule.describeOrigin()} "${rule.text}" forbids: ` +
      'it needs approval (refused where nobody can approve); write the commands out as plain shell commands',
  };
}

/** What a deny rule (else an ask rule) of the tool says about a command it cannot see: deny (ask). */
function unseenObjection(applicable: readonly Record<RuleList, CompiledRule[]>[], reason: (list: 'deny' | 'ask', rule: CompiledRule) => string): PermissionVerdict | undefined {
  for (const list of ['deny', 'ask'] as const) {
    const rule = applicable.flatMap((lists) => lists[list])[0];
    if (rule) return { decision: list, layer: `${LAYER_NAME}:${rule.origin.scope}`, reason: reason(list, rule) };
  }
  return undefined;
}
/**
 * One segment. Allow rules see the segment as written but without its redirections
 * (`npm test 2>&1` is `npm test`), and allow only a segment whose writing redirections all go to
 * /dev/null, /dev/stdout, /dev/stderr, a file descriptor or a file inside the project (otherwise
 * the segment is left to the mode layer). Deny and ask rules see the full text and also its
 * words unquoted and without leading assignments (`"git" push` is `git push` for a deny), a
 * multiplexer's global options removed (`git -C . push` is `git push`) and the leading
 * single-letter flags in every grouping and order (`rm -r -f` is `rm -rf`): command-forms.ts.
 * Wrapped commands (`timeout 5 git push`, `sh -c '…'`) are segments of their own from the parser;
 * what a bare `xargs` runs is matched by allow rules with its unknown input marked (allow-wrappers.ts).
 */
function segmentUnit(segment: ShellSegmentLike, writes: WriteCheck): Unit {
  const text = segment.text.trim();
  const allowText = allowTextOf(segment);
  const forms = new Set<string>([text]);
  if (segment.argv.length > 0) {
    forms.add(segment.argv.join(' '));
    // `/bin/rm -rf x` is `rm -rf x` for a deny rule (and `RM` on a case-insensitive disk).
    const name = segment.argv[0]!;
    const base = name.slice(name.lastIndexOf('/') + 1);
    forms.add([base, ...segment.argv.slice(1)].join(' '));
    forms.add([base.toLowerCase(), ...segment.argv.slice(1)].join(' '));
    for (const form of ruleForms([base, ...segment.argv.slice(1)]).forms) forms.add(form);
  }
  if (segment.equivalent !== undefined) forms.add(segment.equivalent);
  const denyForms = [...forms];
  let writesAllowed: boolean | undefined;
  return {
    label: text,
    matches: (rule, list) => {
      if (list !== 'allow') return denyForms.some((form) => rule.matchesCommand(form));
      writesAllowed ??= segment.redirects.every((r) => redirectAllowed(r, segment.dirs, writes));
      return writesAllowed && rule.matchesCommand(allowText);
    },
  };
}

interface WriteCheck {
  projectRoot: string;
  homeDir: string;
  /** Where the command line starts (the bash call's workdir, or the project root). */
  startDir: string;
  /** `/dev/stdout`, `/dev/fd/N` reopen a descriptor: harmless unless the line reads a file onto one. */
  descriptorsHarmless: boolean;
  /** Another segment of the line that may make a link first (sdk/shell-command/link-makers.ts): every target is unknown. */
  linkedBy?: string | undefined;
}

/** The absolute directories a segment may run in; undefined when unknown. */
export function segmentDirectories(dirs: readonly string[] | null | undefined, startDir: string, homeDir: string): string[] | undefined {
  if (dirs === null) return undefined;
  const out: string[] = [];
  for (const dir of dirs ?? ['.']) {
    if (dir === '~' || dir.startsWith('~/')) out.push(path.resolve(homeDir, dir.slice(2)));
    else if (dir.startsWith('~')) return undefined; // ~user
    else out.push(path.resolve(startDir, dir));
  }
  return out;
}


/** A redirection an allow rule may let through: not writing, or writing to a harmless place or inside the project. */
function redirectAllowed(redirect: { op: string; target: string }, dirs: readonly string[] | null | undefined, writes: WriteCheck): boolean {
  const { op, target } = redirect;
  if (!op.includes('>')) return true; // <, <<, <<<, <&: reading
  if (target === '/dev/null' || (writes.descriptorsHarmless && DESCRIPTOR_DEVICE.test(target))) return true;
  if ((op === '>&' || op === '<&' || op === '>&-') && /^(?:\d+|-)$/.test(target)) return true; // 2>&1, >&-
  if (writes.linkedBy !== undefined) return false; // a link the line makes is not there yet
  const expanded = expandHome(target, writes.homeDir);
  // Expansions, globs, process substitution, …: the real target is unknown.
  if (!/^[A-Za-z0-9_./@%+=,:-]+$/.test(expanded) || expanded.startsWith('-')) return false;
  const bases = path.isAbsolute(expanded) ? [writes.startDir] : segmentDirectories(dirs, writes.startDir, writes.homeDir);
  if (bases === undefined) return false; // a relative target after `cd "$X"`: where it lands is unknown
  try {
    const root = resolveRealSync(writes.projectRoot);
    return bases.every((base) => {
      // `/proc/self/cwd/…` is the command's directory, never resolved in MewCode's process; `link/..` is the kernel's.
      const walked = physicalWalk(path.isAbsolute(expanded) ? expanded : `${base}/${expanded}`);
      return walked.through === undefined && isWithin(root, resolveRealSync(path.resolve(base, expanded))) && isWithin(root, resolveRealSync(walked.physical));
    });
  } catch {
    return false;
  }
}
