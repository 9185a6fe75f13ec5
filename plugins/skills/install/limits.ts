/** S7's install limits, in one place. */
export const INSTALL_LIMITS = {
  /** Bytes per file. */
  maxFileBytes: 1024 * 1024,
  /** Bytes in all. */
  maxTotalBytes: 8 * 1024 * 1024,
  maxFiles: 64,
  /** Folder levels below the skill's own folder. */
  maxDepth: 4,
  /** The whole install, listing and downloads. */
  timeoutMs: 60_000,
} as const;

export type InstallLimits = { -readonly [K in keyof typeof INSTALL_LIMITS]: number };

/**
 * Where requests go. The defaults are GitHub's; tests (and mirrors) point both elsewhere with
 * MEWCODE_SKILLS_GITHUB_API and MEWCODE_SKILLS_RAW_BASE. The hosts a user may name in a URL
 * do not change.
 */
export interface InstallEndpoints {
  githubApi: string;
  rawBase: string;
}

export function installEndpoints(env: Readonly<Record<string, string | undefined>> = process.env): InstallEndpoints {
  const trim = (url: string): string => url.replace(/\/+$/, '');
  return {
    githubApi: trim(env.MEWCODE_SKILLS_GITHUB_API?.trim() || 'https://api.github.com'),
    rawBase: trim(env.MEWCODE_SKILLS_RAW_BASE?.trim() || 'https://raw.githubusercontent.com'),
  };
}
