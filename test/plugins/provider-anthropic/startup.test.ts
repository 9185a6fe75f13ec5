// Start-up is a feature: the provider plugins must not load their vendor SDK until the first request.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(process.cwd(), 'plugins');

/** Static (non-type) imports or re-exports of a module, e.g. `import X from 'pkg'`, `export * from 'pkg'`. */
function staticValueImports(source: string, moduleName: string): string[] {
  const escaped = moduleName.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const statement = new RegExp(`^\\s*(import|export)\\s+(?!type\\b)[^;]*?from\\s+['"]${escaped}(/[^'"]*)?['"]`, 'gm');
  const bare = new RegExp(`^\\s*import\\s+['"]${escaped}(/[^'"]*)?['"]`, 'gm');
  return [...(source.match(statement) ?? []), ...(source.match(bare) ?? [])].filter(
    // `import { type A, type B } from` is erased too
    (line) => !/^\s*(import|export)\s*\{\s*(type\s+\w+\s*(as\s+\w+\s*)?,?\s*)+\}/.test(line),
  );
}

describe.each([
  ['provider-anthropic', '@anthropic-ai/sdk'],
  ['provider-openai', 'openai'],
])('%s', (plugin, sdk) => {
  const dir = join(root, plugin);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

  test('has source files', () => {
    expect(files).toContain('index.ts');
  });

  test(`no file imports ${sdk} statically (types only); the SDK is loaded with import()`, () => {
    const offenders = files.flatMap((file) =>
      staticValueImports(readFileSync(join(dir, file), 'utf8'), sdk).map((line) => `${file}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
    const dynamic = files.some((file) => readFileSync(join(dir, file), 'utf8').includes(`import('${sdk}')`));
    expect(dynamic).toBe(true);
  });

  test('the detector itself catches a value import', () => {
    expect(staticValueImports(`import Anthropic from '${sdk}';`, sdk)).toHaveLength(1);
    expect(staticValueImports(`import { APIError } from '${sdk}/core/error';`, sdk)).toHaveLength(1);
    expect(staticValueImports(`import type X from '${sdk}';`, sdk)).toHaveLength(0);
    expect(staticValueImports(`import { type A, type B } from '${sdk}/x';`, sdk)).toHaveLength(0);
  });
});
