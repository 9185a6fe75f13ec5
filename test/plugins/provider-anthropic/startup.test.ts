// Start-up is a feature: the plugin must not load the Anthropic SDK until the first request.
// esbuild resolves the real module graph of the plugin's entry point (type-only imports erased).
import { build, type Metafile } from 'esbuild';
import { join } from 'node:path';

const SDK = '@anthropic-ai/sdk';

async function importsOf(entry: string): Promise<Metafile> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    metafile: true,
    logLevel: 'silent',
    external: [SDK, 'openai', 'inversify', 'reflect-metadata'],
  });
  return result.metafile;
}

const sdkImports = (metafile: Metafile) =>
  Object.entries(metafile.inputs).flatMap(([file, input]) =>
    input.imports.filter((i) => i.path === SDK || i.path.startsWith(`${SDK}/`)).map((i) => ({ file, kind: i.kind })),
  );

test('the plugin entry reaches the SDK only through a dynamic import()', async () => {
  const metafile = await importsOf(join(process.cwd(), 'plugins/provider-anthropic/index.ts'));
  const imports = sdkImports(metafile);
  expect(imports.length).toBeGreaterThan(0);
  expect(imports.filter((i) => i.kind !== 'dynamic-import')).toEqual([]);
});

test('the check notices a static import', async () => {
  const { writeFileSync, mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'mewcode-startup-'));
  try {
    writeFileSync(join(dir, 'bad.ts'), `import Anthropic from '${SDK}';\nexport const x = Anthropic;\n`);
    const imports = sdkImports(await importsOf(join(dir, 'bad.ts')));
    expect(imports.map((i) => i.kind)).toEqual(['import-statement']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
