import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { initRepo } from '../support/git-repo.js';

export interface TempDirs {
  cwd: string;
  homeDir: string;
  /** Writes `content` at `path` relative to `root` (creating folders); returns the absolute path. */
  write(root: string, path: string, content: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function makeTempDirs(): Promise<TempDirs> {
  const base = await mkdtemp(join(tmpdir(), 'mewcode-config-'));
  const cwd = join(base, 'project');
  const homeDir = join(base, 'home');
  await mkdir(cwd);
  await mkdir(homeDir);
  initRepo(cwd); // a repository, as most projects are (whether git tracks a file changes nothing for trust)
  return {
    cwd,
    homeDir,
    async write(root, path, content) {
      const file = join(root, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/** Joins lines with "\n" (so line numbers in tests are easy to read). */
export const lines = (...text: string[]): string => `${text.join('\n')}\n`;
