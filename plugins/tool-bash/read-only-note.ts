/**
 * A bare "Read-only file system" from a sandboxed command says nothing of why: the OS sandbox
 * keeps the project's protected paths (`.mewcode`, `.claude`, `.mcp.json`, `.git/config`, git's
 * hooks…; SandboxLaunch.readOnlyPaths) read-only, and outside the project and /tmp nothing is
 * writable. The note names the protected path a failing line mentions (as written, relative to
 * where the command ran, or absolute) and how to go on: a file tool, which asks the user, or the
 * user running the command themselves. Claude Code's plugins keep their state in
 * `.claude/<plugin>.local.md` (the ralph-wiggum loop), which a command cannot create here: a
 * command that could write in `.claude` could also plant its settings and hooks.
 */
import path from 'node:path';

const EROFS = 'Read-only file system';
/** Characters that end a path in an error line: whitespace, quotes, a colon after the name. */
const PATH_END = /[\s'"\u2018\u2019`:,)]/;

export function readOnlyNote(output: string, readOnlyPaths: readonly string[] | undefined, cwd: string, projectRoot: string): string | undefined {
  if (readOnlyPaths === undefined || !output.includes(EROFS)) return undefined;
  const hits = new Map<string, string>();
  for (const line of output.split('\n')) {
    if (!line.includes(EROFS)) continue;
    for (const protectedPath of readOnlyPaths) {
      const named = namedIn(line, protectedPath, cwd);
      if (named !== undefined && !hits.has(protectedPath)) hits.set(protectedPath, named);
    }
  }
  const shown = (p: string): string => {
    const relative = path.relative(projectRoot, p);
    return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? p : relative;
  };
  if (hits.size === 0) {
    return (
      'Note: "Read-only file system" here is the OS sandbox: a command may write only in the project (not its protected files: ' +
      '.mewcode, .claude, .mcp.json, .git/config, git hooks and the like), the directories the user allowed, and /tmp. ' +
      'Write a file in the project with write_file or edit_file (a protected one asks the user), or ask the user to run the command themselves; do not work around it.'
    );
  }
  const list = [...hits].map(([protectedPath, written]) => (written === shown(protectedPath) ? `\`${written}\`` : `\`${written}\` (in the protected \`${shown(protectedPath)}\`)`));
  return (
    `Note: the write to ${list.join(', ')} failed because the OS sandbox keeps ${hits.size === 1 ? 'that path' : 'those paths'} read-only for every command: ` +
    "settings, hooks and commands live there, which a command must not change (a Claude Code plugin's `.claude/<name>.local.md` state file too). " +
    'To go on, write the file with write_file or edit_file (the user is asked each time), or ask the user to run the command in their own terminal; do not work around it.'
  );
}

/** The path as the line writes it when it lies at or below `protectedPath`; undefined when the line does not name it. */
function namedIn(line: string, protectedPath: string, cwd: string): string | undefined {
  const spellings = new Set([protectedPath, path.relative(cwd, protectedPath)].filter((s) => s !== '' && !s.startsWith('..')));
  for (const spelling of spellings) {
    let from = 0;
    for (;;) {
      const at = line.indexOf(spelling, from);
      if (at === -1) break;
      from = at + 1;
      const before = at === 0 ? '' : line[at - 1]!;
      const after = line[at + spelling.length] ?? '';
      // Not part of a longer name (`.claude-x`, `x/.claude`), unless written as `./.claude`.
      if (before !== '' && !PATH_END.test(before) && !(before === '/' && line.slice(Math.max(0, at - 2), at) === './')) continue;
      if (after !== '' && after !== '/' && !PATH_END.test(after)) continue;
      const rest = line.slice(at);
      const end = rest.search(PATH_END);
      return end === -1 ? rest : rest.slice(0, end);
    }
  }
  return undefined;
}
