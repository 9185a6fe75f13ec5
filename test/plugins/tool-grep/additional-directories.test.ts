/**
 * grep and glob search the additional directories (permissions.additional_directories, `--add-dir`)
 * as they search the project: results name files by absolute path, ignore files apply, links out
 * of the directory are not followed, read-denied files stay hidden; anything else stays outside.
 */
import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { makeTree, removeTree, RG_PATH, testLimits, toolContext } from './helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach(removeTree));

function tree(spec: Parameters<typeof makeTree>[0]): string {
  const root = makeTree(spec, 'mewcode-extra-');
  roots.push(root);
  return root;
}

function setup() {
  const project = tree({ 'src/a.ts': 'needle in project\n' });
  const notes = tree({ 'n.txt': 'needle in notes\n', 'deep/m.md': 'needle deep\n', '.gitignore': 'ignored.txt\n', 'ignored.txt': 'needle ignored\n', 'secret.txt': 'needle secret\n' });
  const elsewhere = tree({ 'x.txt': 'needle elsewhere\n' });
  symlinkSync(elsewhere, path.join(notes, 'out'));
  return { project, notes, elsewhere };
}

const ENGINES: GrepEngine[] = RG_PATH ? ['re2js', 'ripgrep'] : ['re2js'];

describe.each(ENGINES)('grep in an additional directory (%s)', (engine) => {
  test('finds matches there, by absolute path; ignore files, links out and hidden files respected', async () => {
    const { project, notes } = setup();
    const hidden = (abs: string) => abs === path.join(notes, 'secret.txt');
    const tool = new GrepTool(testLimits(project), { engine, additionalDirectories: () => [notes], searchPolicy: () => ({ hiddenFiles: () => hidden }) });
    const result = await tool.execute({ pattern: 'needle', path: notes, output_mode: 'files_with_matches' }, toolContext(project));
    expect(result.isError).toBeFalsy();
    expect(result.content.split('\n').sort()).toEqual([path.join(notes, 'deep/m.md'), path.join(notes, 'n.txt')]);
    const sub = await tool.execute({ pattern: 'needle', path: path.join(notes, 'deep') }, toolContext(project));
    expect(sub.content).toBe(`${path.join(notes, 'deep/m.md')}:1: needle deep`);
    const none = await tool.execute({ pattern: 'absent', path: notes }, toolContext(project));
    expect(none.content).toContain(`in ${notes}/`);
  });

  test('a directory that is not an additional one stays refused, also through a link inside one', async () => {
    const { project, notes, elsewhere } = setup();
    const tool = new GrepTool(testLimits(project), { engine, additionalDirectories: () => [notes] });
    expect((await tool.execute({ pattern: 'needle', path: elsewhere }, toolContext(project))).isError).toBe(true);
    expect((await tool.execute({ pattern: 'needle', path: path.join(notes, 'out') }, toolContext(project))).isError).toBe(true);
    const bare = new GrepTool(testLimits(project), { engine });
    expect((await bare.execute({ pattern: 'needle', path: notes }, toolContext(project))).content).toMatch(/outside the project root/);
  });
});

describe('glob in an additional directory', () => {
  test('lists files there by absolute path; ignore files, links out and hidden files respected', async () => {
    const { project, notes, elsewhere } = setup();
    const hidden = (abs: string) => abs === path.join(notes, 'secret.txt');
    const tool = new GlobTool(testLimits(project), { additionalDirectories: () => [notes], searchPolicy: () => ({ hiddenFiles: () => hidden }) });
    const result = await tool.execute({ pattern: '**/*', path: notes }, toolContext(project));
    expect(result.isError).toBeFalsy();
    expect(result.content.split('\n').sort()).toEqual([path.join(notes, '.gitignore'), path.join(notes, 'deep/m.md'), path.join(notes, 'n.txt')].sort());
    // an absolute pattern into the directory works too
    expect((await tool.execute({ pattern: `${notes}/*.txt` }, toolContext(project))).content).toBe(path.join(notes, 'n.txt'));
    expect((await tool.execute({ pattern: '**/*', path: elsewhere }, toolContext(project))).isError).toBe(true);
    expect((await tool.execute({ pattern: '../**/*', path: notes }, toolContext(project))).isError).toBe(true);
  });
});
