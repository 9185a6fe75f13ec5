// A patched package can be installed twice: the project's own highlight.js 11 beside
// cli-highlight's 10, which the highlight-languages patch is written for. The build checks one copy
// (scripts/patches.mjs `verifyPatches`, along the patch's `from` chain); the bundle must then take
// every file of that package from the copy checked. The build's stand-in
// (scripts/highlight-languages.mjs) imports highlight.js as cli-highlight does, and a file of a
// patched package from a copy neither verified nor listed as left unpatched fails the build,
// naming the patch and the file.
//
// Each case bundles the terminal UI's Markdown renderer (marked-terminal, which brings
// cli-highlight and highlight.js through the stand-ins) with the build's own esbuild plugins, in a
// project whose node_modules holds real copies of the packages that bundle reads, with the
// project's own highlight.js replaced by another release and cli-highlight given its own 10.7.3.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
// @ts-expect-error a build script without declarations
import { ESM_OUTPUT } from '../../scripts/esm-output.mjs';
// @ts-expect-error a build script without declarations
import { PATCHES, verifiedPatches, verifyPatches } from '../../scripts/patches.mjs';
// @ts-expect-error a build script without declarations
import { thirdPartyRedirects } from '../../scripts/third-party-redirects.mjs';

interface Patch {
  name: string;
  package: string;
  from: string[];
  version: string;
  files: Record<string, string>;
  unpatchedCopies?: { from: string[]; version: string; why: string }[];
}

const REPO = path.resolve('.');
/** The patches of the renderer's packages (the project below has no Ink). */
const RENDERER = (PATCHES as Patch[]).filter((patch) => ['marked-terminal', 'cli-highlight', 'highlight.js'].includes(patch.package));
const HIGHLIGHT_JS = RENDERER.find((patch) => patch.package === 'highlight.js')!;
const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-patch-copies-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function bundle(root: string, entry: string, patches: Patch[] = RENDERER): Promise<{ metafile: Metafile }> {
  const options: BuildOptions = {
    ...(ESM_OUTPUT as BuildOptions),
    absWorkingDir: root,
    stdin: { contents: entry, resolveDir: root, sourcefile: 'entry.mjs' },
    outdir: path.join(root, 'out'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [verifiedPatches(verifyPatches(root, patches)), ...thirdPartyRedirects(root)],
  };
  return build(options) as Promise<{ metafile: Metafile }>;
}

const RENDERER_ENTRY = "export { markedTerminal } from 'marked-terminal';\n";
let project: string;

beforeAll(async () => {
  // The packages the renderer's bundle reads in this repository, copied whole.
  const { metafile } = await bundle(REPO, RENDERER_ENTRY);
  const packages = new Set(Object.keys(metafile.inputs).flatMap((input) => input.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//)?.[1] ?? []));
  expect(packages).toContain('highlight.js');
  project = path.join(work, 'project');
  for (const name of packages) cpSync(path.join(REPO, 'node_modules', name), path.join(project, 'node_modules', name), { recursive: true });
  // cli-highlight gets its own highlight.js 10.7.3; the project's own is another release.
  mkdirSync(path.join(project, 'node_modules/cli-highlight/node_modules'), { recursive: true });
  renameSync(path.join(project, 'node_modules/highlight.js'), path.join(project, 'node_modules/cli-highlight/node_modules/highlight.js'));
  const other = path.join(project, 'node_modules/highlight.js');
  cpSync(path.join(REPO, 'node_modules/highlight.js'), other, { recursive: true });
  const manifest = JSON.parse(readFileSync(path.join(other, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(path.join(other, 'package.json'), JSON.stringify({ ...manifest, version: '11.11.1' }));
  writeFileSync(path.join(other, 'lib/core.js'), `${readFileSync(path.join(other, 'lib/core.js'), 'utf8')}\n// another release\n`);
}, 60_000);

test('the stand-in imports the highlight.js copy the patch verified, not the project’s own', async () => {
  const { metafile } = await bundle(project, RENDERER_ENTRY);
  const highlightJs = Object.keys(metafile.inputs).filter((input) => /(?:^|\/)node_modules\/highlight\.js\//.test(input));
  expect(highlightJs).toContain('node_modules/cli-highlight/node_modules/highlight.js/lib/core.js');
  expect(highlightJs.filter((input) => !input.startsWith('node_modules/cli-highlight/node_modules/highlight.js/'))).toEqual([]);
  // Nothing of node_modules comes from outside the project (the repository's copies, found from scripts/).
  expect(Object.keys(metafile.inputs).filter((input) => input.includes('node_modules/') && !input.startsWith('node_modules/'))).toEqual([]);
}, 60_000);

test('a file of a patched package from a copy the patch did not verify fails the build, naming the patch and the file', async () => {
  const failed = await bundle(project, "import rust from 'highlight.js/lib/languages/rust';\nexport { rust };\n").then(
    () => undefined,
    (error: Error) => error,
  );
  expect(failed?.message).toContain('patch highlight-languages: the bundle loads node_modules/highlight.js/lib/languages/rust.js, from a copy of highlight.js (11.11.1)');
  expect(failed?.message).toContain('node_modules/cli-highlight/node_modules/highlight.js');
}, 60_000);

test('a copy the patch lists as left unpatched may be bundled, at the version listed', async () => {
  const entry = "import rust from 'highlight.js/lib/languages/rust';\nexport { rust };\n";
  const listed = (version: string): Patch[] => RENDERER.map((patch) => (patch === HIGHLIGHT_JS ? { ...patch, unpatchedCopies: [{ from: [], version, why: 'the project’s own' }] } : patch));
  const { metafile } = await bundle(project, entry, listed('11.11.1'));
  expect(Object.keys(metafile.inputs)).toContain('node_modules/highlight.js/lib/languages/rust.js');
  expect(() => verifyPatches(project, listed('11.10.0'))).toThrow('patch highlight-languages: the unpatched copy of highlight.js of the project is 11.11.1, listed as 11.10.0');
}, 60_000);
