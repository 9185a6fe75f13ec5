/**
 * A variable set for the commands that follow — `export NAME=value`, `declare -x`, or a bare
 * `NAME=value` (which reaches child programs when NAME is already exported, as LESS or PAGER often
 * is, or under `set -a`) — reaches every program the command line runs after it, where nothing
 * ties it to them any more. So it is judged where it is set, as if it prefixed each program that
 * reads it: variables a program reads as its options (TAR_OPTIONS, ZIPOPT, MANOPT, LESS,
 * npm_config_*) and variables naming a program to run (PAGER, GIT_SSH_COMMAND, LD_PRELOAD,
 * MAKEFLAGS …). A literal command found there is a script deny rules see (opaque); anything else
 * runs unknown commands. Harmless values (`LESS=-R`, `PAGER=cat`) stay ordinary.
 */
import type { EvaluatedStrings } from './evaluating-builtins.js';
import { hiddenRunner } from './hidden-runners.js';
import { OPTION_PROGRAMS } from './option-environment.js';
import type { Word } from './shell-shapes.js';
import { toolRunner } from './tool-runners.js';

const program = (name: string): Word => ({ value: name, literal: true, start: 0, end: 0 });

/** What the assignments (`NAME=value`) make later programs run. */
export function exportedEnvironment(assignments: readonly string[]): EvaluatedStrings {
  const into: EvaluatedStrings = { opaque: [], scripts: [] };
  for (const assignment of assignments) {
    const name = assignment.slice(0, Math.max(assignment.indexOf('='), 0));
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) continue;
    for (const reader of OPTION_PROGRAMS) {
      const runs = toolRunner(reader, [program(reader)], [assignment]);
      if (!runs) continue;
      const why = `${name}=… makes a later ${reader} run a command`;
      if (runs.unknown !== undefined) into.unknown ??= `${why} (${runs.unknown})`;
      else if (runs.scripts.length > 0 || runs.opaque !== undefined) {
        into.opaque.push(runs.opaque ?? why);
        into.scripts.push(...runs.scripts);
      }
    }
    const hidden = hiddenRunner([program('git')], [assignment]) ?? hiddenRunner([program('make')], [assignment]);
    if (hidden !== undefined) into.unknown ??= `${name}=… set for the commands after it: ${hidden}`;
  }
  return into;
}
