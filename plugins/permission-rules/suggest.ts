/**
 * The exact rule that allows one call and nothing else (A9): what "allow for this session"
 * and "allow always" record, and what the headless UI tells the user to add.
 *
 * - command: `Bash(npm test)` when the command holds no glob metacharacter, otherwise the exact
 *   form `Bash(=rm -rf build/*)` — so an approval of `rm -rf build/*` never allows `rm -rf src`.
 *   A compound command is recorded whole; such a rule matches only that exact command line.
 * - path: `Edit(./src/app.ts)` (project-relative) or `Read(//etc/hosts)` (absolute), with `=`
 *   when the path holds glob characters.
 * - no target (MCP tools): the tool name.
 */
import path from 'node:path';
import { expandHome } from '../../sdk/path-containment.js';
import { isPathWithin } from '../../types/path-within.js';
import type { PermissionTarget } from '../../types/tools.js';
import { hasPathGlobChars } from './matchers.js';
import { friendlyName } from './rule-syntax.js';

export interface RuleSubject {
  toolName: string;
  target: PermissionTarget;
  projectRoot: string;
}

export function suggestRule(request: RuleSubject, homeDir?: string): string {
  const name = friendlyName(request.toolName);
  const target = request.target;
  if (target.kind === 'command') {
    const command = target.command.trim();
    const literal = !/[*\\]/.test(command) && !/^[=~!]/.test(command) && command !== '';
    return `${name}(${literal ? '' : '='}${command})`;
  }
  if (target.kind === 'path') {
    const root = path.resolve(request.projectRoot);
    const absolute = path.resolve(root, homeDir ? expandHome(target.path, homeDir) : target.path);
    const relative = path.relative(root, absolute);
    const body = isPathWithin(root, absolute) ? (relative === '' ? '.' : `./${relative.split(path.sep).join('/')}`) : `//${absolute.replace(/^[/\\]+/, '').split(path.sep).join('/')}`;
    return `${name}(${hasPathGlobChars(body) ? '=' : ''}${body})`;
  }
  // "Allow always" on a sub-agent or skill call allows that type or skill, not every one.
  if (target.kind === 'named' && target.name.trim() !== '') {
    const subject = target.name.trim();
    return `${name}(${/[*\\]/.test(subject) || /^[=~!]/.test(subject) ? '=' : ''}${subject})`;
  }
  return request.toolName;
}

/** Quote a rule for a POSIX shell command line. */
export function shellQuote(text: string): string {
  if (!/["$`\\!]/.test(text)) return `"${text}"`;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
