/**
 * Claude Code plugin marketplaces built in temporary directories for tests: plugin folders with a
 * `.claude-plugin/plugin.json` and a command, a `.claude-plugin/marketplace.json`, and the same as
 * a local git repository (cloned through a file:// URL: no network).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/** A plugin folder: plugin.json (name, version) and one command `commands/<command>.md`. */
export function writePlugin(dir: string, name: string, options: { version?: string; command?: string; body?: string } = {}): void {
  writeFiles(dir, {
    '.claude-plugin/plugin.json': JSON.stringify({ name, version: options.version ?? '1.0.0', description: `The ${name} plugin` }),
    [`commands/${options.command ?? 'hello'}.md`]: options.body ?? `---\ndescription: Say hello from ${name}\n---\nSay hello from ${name}: $ARGUMENTS\n`,
  });
}

/** `<root>/.claude-plugin/marketplace.json` with these plugin entries. */
export function writeCatalogue(root: string, name: string, plugins: unknown[]): void {
  writeFiles(root, { '.claude-plugin/marketplace.json': JSON.stringify({ name, owner: { name: 'Tests' }, plugins }, null, 2) });
}

export function gitCommitAll(dir: string, message: string): string {
  const run = (...args: string[]) => execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-c', 'commit.gpgsign=false', ...args], { cwd: dir, stdio: 'pipe', encoding: 'utf8' });
  run('add', '-A');
  run('commit', '-q', '-m', message);
  return run('rev-parse', 'HEAD').trim();
}

export function gitInit(dir: string): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', dir], { stdio: 'ignore' });
}

export const fileUrl = (dir: string): string => `file://${dir}`;
