/**
 * The main session's active skills, saved beside its transcript (`<session>/active-skills.json`),
 * so a continued session has them again: its history says a skill "is now active", and the Active
 * Skills section must then be in its requests. Only names and arguments are saved; the bodies are
 * read from disk again when the session continues (a skill may have changed, or gone).
 */
import { parseJsonWithinDepth } from '../../config/nesting-depth.js';
import path from 'node:path';
import { prepareSessionDirectory, replaceFile, sessionDirectory } from '../../sdk/session-files.js';
import { readProjectStateFile } from '../../sdk/project-state-dir.js';

export interface SavedActivation {
  name: string;
  args: string;
}

const FILE = 'active-skills.json';

export function saveActiveSkills(projectRoot: string, sessionId: string, entries: readonly SavedActivation[]): void {
  const dir = sessionDirectory(projectRoot, sessionId);
  prepareSessionDirectory(projectRoot, dir, 'active skills');
  replaceFile(projectRoot, path.join(dir, FILE), `${JSON.stringify(entries.map(({ name, args }) => ({ name, args })))}\n`);
}

/** What was saved; nothing when the session saved none (or the file is not what this module writes). */
export function loadActiveSkills(projectRoot: string, sessionId: string): SavedActivation[] {
  let text: string;
  try {
    text = readProjectStateFile(projectRoot, path.join(sessionDirectory(projectRoot, sessionId), FILE));
  } catch {
    return [];
  }
  try {
    const value: unknown = parseJsonWithinDepth(text);
    if (!Array.isArray(value)) return [];
    return value.filter((item): item is SavedActivation => typeof item?.name === 'string' && typeof item?.args === 'string').map(({ name, args }) => ({ name, args }));
  } catch {
    return [];
  }
}
