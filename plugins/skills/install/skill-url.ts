/**
 * Which URLs `install_skill` accepts (S7), and where each is fetched from:
 * - `https://github.com/<owner>/<repo>/tree/<ref>/<path>`: the folder, through the contents API;
 * - `https://raw.githubusercontent.com/<owner>/<repo>/<ref>/<path>/SKILL.md`: that one file
 *   (the seed decoded it as a folder listing and always failed);
 * - `https://skills.sh/<owner>/<repo>/<skill>` (or `/<owner>/<skill>`): `skills/<skill>` in that repo.
 * Any other host is refused: installing a skill brings instructions the agent will follow.
 */
import { normaliseName, SKILL_NAME } from '../skill.js';
import type { InstallEndpoints } from './limits.js';

export type SkillSource =
  | { kind: 'folder'; name: string; listUrl: string }
  | { kind: 'file'; name: string; fileUrl: string };

export type ParsedUrl = { ok: true; source: SkillSource } | { ok: false; error: string };

const SUPPORTED = 'Use a github.com tree URL of the skill folder (https://github.com/<owner>/<repo>/tree/<ref>/<path>), a raw.githubusercontent.com URL of its SKILL.md, or a skills.sh URL.';

function segmentsOf(url: URL): string[] | undefined {
  const parts = url.pathname.split('/').filter((part) => part.length > 0).map((part) => decodeURIComponent(part));
  // No part may climb or hide a separator (a hostile URL such as /o/r/tree/main/..%2F..).
  return parts.every((part) => part !== '.' && part !== '..' && !/[\\/\u0000]/.test(part)) ? parts : undefined;
}

function nameFrom(raw: string): string | undefined {
  const name = normaliseName(raw);
  return SKILL_NAME.test(name) ? name : undefined;
}

const encodePath = (parts: readonly string[]): string => parts.map(encodeURIComponent).join('/');

export function parseSkillUrl(input: string, endpoints: InstallEndpoints): ParsedUrl {
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    return { ok: false, error: `"${input}" is not a URL. ${SUPPORTED}` };
  }
  if (url.protocol !== 'https:') return { ok: false, error: `Only https URLs are accepted (got ${url.protocol}). ${SUPPORTED}` };
  const parts = segmentsOf(url);
  if (!parts) return { ok: false, error: `The URL's path has "." or ".." segments or encoded separators; refused.` };
  const host = url.hostname.toLowerCase();
  if (host === 'github.com' || host === 'www.github.com') {
    const [owner, repo, tree, ref, ...rest] = parts;
    if (!owner || !repo || tree !== 'tree' || !ref) return { ok: false, error: `A github.com URL must name a folder: https://github.com/<owner>/<repo>/tree/<ref>/<path>. ${SUPPORTED}` };
    const name = nameFrom(rest.at(-1) ?? repo);
    if (!name) return { ok: false, error: `Cannot make a skill name from "${rest.at(-1) ?? repo}".` };
    const listUrl = `${endpoints.githubApi}/repos/${encodePath([owner, repo])}/contents/${encodePath(rest)}?ref=${encodeURIComponent(ref)}`;
    return { ok: true, source: { kind: 'folder', name, listUrl } };
  }
  if (host === 'raw.githubusercontent.com') {
    if (parts.length < 4 || parts.at(-1) !== 'SKILL.md') return { ok: false, error: `A raw.githubusercontent.com URL must end in /SKILL.md: https://raw.githubusercontent.com/<owner>/<repo>/<ref>/<path>/SKILL.md.` };
    const folder = parts.length >= 5 ? parts.at(-2)! : parts[1]!;
    const name = nameFrom(folder);
    if (!name) return { ok: false, error: `Cannot make a skill name from "${folder}".` };
    return { ok: true, source: { kind: 'file', name, fileUrl: `${endpoints.rawBase}/${encodePath(parts)}` } };
  }
  if (host === 'skills.sh' || host === 'www.skills.sh') {
    const [owner, repo, skill] = parts;
    if (!owner || !repo || parts.length > 3) return { ok: false, error: `A skills.sh URL is https://skills.sh/<owner>/<repo>/<skill> or https://skills.sh/<owner>/<skill>.` };
    const skillName = skill ?? repo;
    const name = nameFrom(skillName);
    if (!name) return { ok: false, error: `Cannot make a skill name from "${skillName}".` };
    return { ok: true, source: { kind: 'folder', name, listUrl: `${endpoints.githubApi}/repos/${encodePath([owner, repo])}/contents/skills/${encodeURIComponent(skillName)}` } };
  }
  return { ok: false, error: `Skills are installed only from github.com, raw.githubusercontent.com and skills.sh (not ${host}). ${SUPPORTED}` };
}
