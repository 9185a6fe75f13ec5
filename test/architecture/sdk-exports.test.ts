/**
 * `mewcode/sdk` (sdk/index.ts) does not hand out the host's configuration layer: no name it
 * exports is a config/ export, whatever the spelling. The dependency-cruiser rule
 * `sdk-does-not-re-export-config` sees `export … from '../config/…'` only; an import followed by
 * `export { X }`, a renamed export or a namespace stored in a constant pass it. Checked twice:
 *
 * - by the type checker: every export of sdk/index.ts, followed through its aliases, is declared
 *   outside config/ (values and types, under any name, namespaces included);
 * - at run time: no export of the loaded sdk/index.ts is a config/ module's export (the same
 *   object or function, or the same name with the same value) or a config/ module itself.
 *
 * The config/ helpers a plugin may use are exported by the `mewcode` entry (index.ts).
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SDK = path.join(ROOT, 'sdk/index.ts');
const inConfig = (file: string): boolean => path.relative(ROOT, file).split(path.sep)[0] === 'config';

const parsed = ts.getParsedCommandLineOfConfigFile(path.join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
const program = ts.createProgram([SDK], parsed.options);
/** The config/ modules sdk/ reaches: only these can give it something to re-export. */
const configModules = program
  .getSourceFiles()
  .map((source) => source.fileName)
  .filter((file) => inConfig(file) && !file.endsWith('.d.ts'));

test('sdk/ reaches config/ (the run-time check below has modules to compare with)', () => {
  expect(configModules.length).toBeGreaterThan(0);
});

test('no export of sdk/index.ts is declared in config/, followed through every alias', () => {
  const checker = program.getTypeChecker();
  const sdk = checker.getSymbolAtLocation(program.getSourceFile(SDK)!)!;
  const exported = checker.getExportsOfModule(sdk);
  expect(exported.length).toBeGreaterThan(100);
  const fromConfig = exported.flatMap((symbol) => {
    const original = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const files = (original.declarations ?? []).map((declaration) => declaration.getSourceFile().fileName).filter(inConfig);
    return files.length > 0 ? [`${symbol.name} (declared in ${files.map((file) => path.relative(ROOT, file)).join(', ')})`] : [];
  });
  expect(fromConfig).toEqual([]);
});

test('no export of the loaded sdk/index.ts is a config/ module or one of its exports', async () => {
  const sdk = (await import(pathToFileURL(SDK).href)) as Record<string, unknown>;
  const configValues = new Map<unknown, string>();
  const configPrimitives = new Map<string, unknown>();
  for (const file of configModules) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const where = path.relative(ROOT, file);
    configValues.set(module, `the module ${where}`);
    for (const [name, value] of Object.entries(module)) {
      if ((typeof value === 'object' && value !== null) || typeof value === 'function') configValues.set(value, `${name} of ${where}`);
      else configPrimitives.set(name, value);
    }
  }
  const shared = Object.entries(sdk).flatMap(([name, value]) => {
    const same = configValues.get(value) ?? (configPrimitives.has(name) && Object.is(configPrimitives.get(name), value) ? `${name} of config/` : undefined);
    return same === undefined ? [] : [`${name} is ${same}`];
  });
  expect(Object.keys(sdk).length).toBeGreaterThan(50);
  expect(shared).toEqual([]);
});
