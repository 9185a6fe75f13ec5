// Start-up is a feature: a provider plugin must not load its SDK until the first request.
// esbuild resolves the real module graph of the plugin's entry point (type-only imports erased).
// The SDK may be imported statically only by a module the entry itself reaches through a dynamic
// import() (a plugin's vendor.ts, the part of the SDK it uses).
import { build, type Metafile } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const SDKS = ['@anthropic-ai/sdk', 'openai'];

async function importsOf(entry: string): Promise<Metafile> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    metafile: true,
    logLevel: 'silent',
    external: [...SDKS, 'inversify', 'reflect-metadata'],
  });
  return result.metafile;
}

const sdkImports = (metafile: Metafile, sdk: string) =>
  Object.entries(metafile.inputs).flatMap(([file, input]) =>
    input.imports.filter((i) => i.path === sdk || i.path.startsWith(`${sdk}/`)).map((i) => ({ file, kind: i.kind })),
  );

/** The modules `entry` loads when it is imported: its static imports, transitively. */
function loadedWithEntry(metafile: Metafile, entry: string): Set<string> {
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file) || !metafile.inputs[file]) return;
    loaded.add(file);
    for (const i of metafile.inputs[file]!.imports) if (i.kind === 'import-statement') visit(i.path);
  };
  visit(relative(process.cwd(), entry));
  return loaded;
}

/** SDK imports that run as soon as the plugin is imported. */
async function eagerSdkImports(entry: string, sdk: string) {
  const metafile = await importsOf(entry);
  const eager = loadedWithEntry(metafile, entry);
  const imports = sdkImports(metafile, sdk);
  return { imports, eager: imports.filter((i) => i.kind !== 'dynamic-import' && eager.has(i.file)) };
}

test.each([
  ['provider-anthropic', '@anthropic-ai/sdk'],
  ['provider-openai', 'openai'],
])('%s reaches %s only through a dynamic import()', async (plugin, sdk) => {
  const { imports, eager } = await eagerSdkImports(join(process.cwd(), `plugins/${plugin}/index.ts`), sdk);
  expect(imports.length).toBeGreaterThan(0);
  expect(eager).toEqual([]);
});

test('the check notices a static import', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mewcode-startup-'));
  try {
    writeFileSync(join(dir, 'bad.ts'), `import { x } from './helper.js';\nexport const y = x;\nexport const later = () => import('./vendor.js');\n`);
    writeFileSync(join(dir, 'helper.ts'), `import OpenAI from 'openai';\nexport const x = OpenAI;\n`);
    writeFileSync(join(dir, 'vendor.ts'), `export { default } from 'openai';\n`);
    const { imports, eager } = await eagerSdkImports(join(dir, 'bad.ts'), 'openai');
    expect(imports).toHaveLength(2);
    expect(eager.map((i) => [i.file.split('/').pop(), i.kind])).toEqual([['helper.ts', 'import-statement']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
