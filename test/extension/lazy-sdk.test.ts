// Start-up is a feature: a provider plugin must not load its SDK until the first request.
// esbuild resolves the real module graph of the plugin's entry point (type-only imports erased).
import { build, type Metafile } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

test.each([
  ['provider-anthropic', '@anthropic-ai/sdk'],
  ['provider-openai', 'openai'],
])('%s reaches %s only through a dynamic import()', async (plugin, sdk) => {
  const imports = sdkImports(await importsOf(join(process.cwd(), `plugins/${plugin}/index.ts`)), sdk);
  expect(imports.length).toBeGreaterThan(0);
  expect(imports.filter((i) => i.kind !== 'dynamic-import')).toEqual([]);
});

test('the check notices a static import', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mewcode-startup-'));
  try {
    writeFileSync(join(dir, 'bad.ts'), `import OpenAI from 'openai';\nexport const x = OpenAI;\n`);
    expect(sdkImports(await importsOf(join(dir, 'bad.ts')), 'openai').map((i) => i.kind)).toEqual(['import-statement']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
