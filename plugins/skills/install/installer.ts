/**
 * Install a skill (S7): download into a staging folder created *inside the target root* — the
 * same filesystem, so the final rename is atomic and cannot fail with EXDEV as the seed's
 * `$TMPDIR` staging did — check it holds a valid SKILL.md, then swap it in: the old folder is
 * renamed aside, the new one renamed into place, the old one removed (and put back if the swap
 * fails) — never a half-written folder under the skill's name. The staging folder is hidden (`.install-…`), so a catalog scan never sees it; it is
 * removed on every failure.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isPathWithin } from '../../../types/path-within.js';
import { installRoot } from '../roots.js';
import { parseSkill } from '../skill.js';
import { frontmatterReady } from '../frontmatter.js';
import { readSkillFile } from '../skill-file.js';
import { downloadFile, downloadFolder, type DownloadState } from './download.js';
import { InstallError } from './http-get.js';
import { INSTALL_LIMITS, type InstallEndpoints, type InstallLimits } from './limits.js';
import { parseSkillUrl } from './skill-url.js';

export interface InstallRequest {
  url: string;
  scope: 'user' | 'project';
  homeDir: string;
  projectRoot: string;
  endpoints: InstallEndpoints;
  signal?: AbortSignal;
  limits?: InstallLimits;
  /** Told the staging folder once it exists (tests check where it is). */
  onStaging?(dir: string): void;
}

export interface InstallReport {
  name: string;
  dir: string;
  files: number;
  bytes: number;
  /** Whether an installed skill of that name was replaced. */
  replaced: boolean;
  /** Entries not installed (links, submodules). */
  skipped: string[];
  /** Fixed-up frontmatter values, as the catalog will warn. */
  warnings: string[];
}

export type InstallOutcome = { ok: true; report: InstallReport } | { ok: false; error: string };

const exists = (file: string): Promise<boolean> => stat(file).then(() => true, () => false);

export async function installSkill(request: InstallRequest): Promise<InstallOutcome> {
  const parsed = parseSkillUrl(request.url, request.endpoints);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const { source } = parsed;
  const limits = request.limits ?? { ...INSTALL_LIMITS };
  const root = installRoot(request.scope, request.homeDir, request.projectRoot);
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  const allowedOrigins = new Set([new URL(request.endpoints.githubApi).origin, new URL(request.endpoints.rawBase).origin]);
  let staging: string | undefined;
  try {
    if (request.scope === 'project') await refuseLinkOut(root, request.projectRoot);
    await mkdir(root, { recursive: true });
    staging = await mkdtemp(path.join(root, `.install-${source.name}-`));
    request.onStaging?.(staging);
    const state: DownloadState = { files: 0, bytes: 0, folders: 0, skipped: [] };
    const context = { limits, signal, allowedOrigins };
    if (source.kind === 'folder') await downloadFolder(source.listUrl, staging, '', 0, state, context);
    else await downloadFile(source.fileUrl, path.join(staging, 'SKILL.md'), 'SKILL.md', state, context);

    const skillFile = path.join(staging, 'SKILL.md');
    if (!(await exists(skillFile))) throw new InstallError('the download has no SKILL.md at its top; it is not a skill folder');
    // The catalog's own limit: a SKILL.md it would skip is not installed as if it worked.
    const read = await readSkillFile(skillFile, { dir: root, scope: 'user' });
    if (!read.ok) throw new InstallError(`its ${read.message}`);
    await frontmatterReady();
    const checked = parseSkill(read.text, { dir: staging, file: skillFile, dirName: source.name, root: { dir: root, scope: request.scope } });
    if (!checked.ok) throw new InstallError(`its SKILL.md is not valid: ${checked.reason}`);
    // The folder is named as the skill calls itself, so the catalog finds no mismatch.
    const name = checked.skill.name;
    const target = path.join(root, name);
    const replaced = await swapIn(staging, target, root);
    staging = undefined;
    const warnings = checked.skill.warnings.filter((w) => !w.includes('differs from its folder'));
    return { ok: true, report: { name, dir: target, files: state.files, bytes: state.bytes, replaced, skipped: state.skipped, warnings } };
  } catch (error) {
    return { ok: false, error: error instanceof InstallError ? error.message : `the install failed: ${(error as Error).message}` };
  } finally {
    if (staging) await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * A repository may make `.mewcode` or `.mewcode/skills` a link to anywhere (`~/.config/…`): a
 * project install follows no link out of the project. The deepest existing part of the target
 * root is resolved before anything is created.
 */
async function refuseLinkOut(root: string, projectRoot: string): Promise<void> {
  let existing = root;
  while (!(await exists(existing)) && path.dirname(existing) !== existing) existing = path.dirname(existing);
  const [real, project] = await Promise.all([realpath(existing), realpath(projectRoot)]);
  if (!isPathWithin(project, real)) throw new InstallError(`the project's skills folder ${root} leads outside the project (to ${real}); refused`);
}

/**
 * Replace within one folder: two renames (Node has no exchange-rename), so `target` is missing
 * only between them, never half-written; a failed second rename puts the old skill back.
 */
async function swapIn(staging: string, target: string, root: string): Promise<boolean> {
  if (!(await exists(target))) {
    await rename(staging, target);
    return false;
  }
  const aside = path.join(root, `.replaced-${path.basename(target)}-${randomBytes(4).toString('hex')}`);
  await rename(target, aside);
  try {
    await rename(staging, target);
  } catch (error) {
    await rename(aside, target).catch(() => undefined);
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
  return true;
}
