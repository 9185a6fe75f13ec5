/**
 * What a decision record says was judged: the call's target and its input, each in full up to the
 * target cap (OutputLimits.auditTargetMaxChars, 20,000 characters by default). Text past the cap
 * is cut, and the record then carries the whole text's length and its SHA-256, so it still proves
 * which command, path or input it was about: a command padded past the cap (`echo <long text>;
 * touch X`) cannot run with its tail unrecorded.
 *
 *   target            the path, the command, or a named target's `name detail` (the sub-agent
 *                     type an agent call starts, the skill and arguments load_skill loads); null
 *                     when the call has none
 *   real              where a path target led (links followed), when that is not the path itself:
 *                     the `real` the permission layers judged when the tool gave one (a write
 *                     through `src/notes` → `deploy`), else the path resolved as the decision is
 *                     recorded (a glob or grep of a linked folder); absent otherwise
 *   target_chars      } only when `target` was cut: the whole target's length (UTF-16 units)
 *   target_sha256     } and the SHA-256 (hex) of its UTF-8 bytes
 *   input             the call's input as JSON, keys sorted (a glob's or grep's pattern, an MCP
 *                     tool's arguments, what a hook judged)
 *   input_chars, input_sha256   the same, when `input` was cut
 */
import { cutUtf16 } from '../../sdk/text-cuts.js';
import { toolPathAbsolute } from '../../sdk/file-tool-support/tool-path.js';
import { resolveRealSync } from '../../sdk/path-containment.js';
import type { PermissionTarget } from '../../types/tools.js';
import { hashLine } from './chain.js';

/** The mark that ends a cut text. */
export const CUT_MARK = '…';

/** Where the call's project and home are, to resolve a relative or `~` path. */
export interface TargetPlaces {
  projectRoot: string;
  homeDir: string;
}

/** A refusal may come before any target was computed: tolerate a missing one. */
export function targetFields(target: PermissionTarget | undefined, input: unknown, max: number, places?: TargetPlaces): Record<string, unknown> {
  const real = places ? realText(target, places) : null;
  return { ...bounded('target', targetText(target), max), ...(real !== null ? bounded('real', real, max) : {}), ...bounded('input', inputText(input), max) };
}

/** Where a path target led, when that is elsewhere than the path names; null otherwise. */
export function realText(target: PermissionTarget | undefined, places: TargetPlaces): string | null {
  if (target?.kind !== 'path' || typeof target.path !== 'string' || target.path === '') return null;
  const absolute = toolPathAbsolute(target.path, places.projectRoot, places.homeDir);
  let real: string | undefined = typeof target.real === 'string' ? target.real : undefined;
  if (real === undefined) {
    try {
      real = resolveRealSync(absolute);
    } catch {
      return null; // a loop or an unreadable ancestor: the tool's own failure says so
    }
  }
  return real === absolute ? null : real;
}

export function targetText(target: PermissionTarget | undefined): string | null {
  switch (target?.kind) {
    case 'path':
      return target.path;
    case 'command':
      return target.command;
    case 'named':
      // As a rule's pattern is matched (`Skill(review-pr *)`): the name, then what the call carries.
      return target.detail ? `${target.name} ${target.detail}` : target.name;
    default:
      return null;
  }
}

/** The input as JSON with its keys sorted (the same input, the same text and hash); null when there is none. */
export function inputText(input: unknown): string | null {
  if (input === undefined || input === null) return null;
  try {
    return JSON.stringify(input, (_key, value: unknown) => (isPlainObject(value) ? sortedCopy(value) : typeof value === 'bigint' ? String(value) : value)) ?? null;
  } catch {
    // A cycle (a plugin's hand-built input): recorded as what it is, not dropped.
    return String(input);
  }
}

function bounded(key: string, text: string | null, max: number): Record<string, unknown> {
  if (text === null) return key === 'target' ? { target: null } : {};
  if (text.length <= max) return { [key]: text };
  return { [key]: `${cutUtf16(text, max)}${CUT_MARK}`, [`${key}_chars`]: text.length, [`${key}_sha256`]: hashLine(text) };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sortedCopy(value: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) copy[key] = value[key];
  return copy;
}
