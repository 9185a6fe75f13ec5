/**
 * The import boundaries of MewCode, checked by `npm test` (test/architecture/boundaries.test.ts
 * runs dependency-cruiser with this file). ARCHITECTURE.md ("Boundaries (enforced)") explains them.
 * A rule that must bend names the exception here, with its reason.
 */
// npm packages the kernel may load: DI, hooks, the version check, decorator metadata, and zod
// for configuration sections. No vendor SDK, no UI library, no HTTP client.
const KERNEL_PACKAGES = ['inversify', 'tapable', 'semver', 'reflect-metadata', 'zod'];
// The package's top-level modules (index.ts, entry.ts, any other file at the root): each is or
// re-exports the `mewcode` entry, which holds the kernel, so every rule that keeps a layer away from
// the entry names them all, not one file name.
const TOP_LEVEL_FILE = '^[^/]+\\.(ts|tsx|js|mjs|cjs)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-self-reference',
      comment: "Source never imports the package by its own name (`mewcode`, `mewcode/sdk`): that name resolves into the build (dist/, or nothing before a build), a second copy of the kernel the other rules cannot see into. Import the source module by its relative path, where the rules judge it. Named exception: bin/mewcode.js, the launcher, which runs the built CLI.",
      severity: 'error',
      from: { pathNot: '^bin/mewcode\\.js$' },
      to: { path: '^(dist/|mewcode(/|$))' },
    },
    {
      name: 'kernel-imports-only-types-and-config',
      comment: 'The kernel knows the contract (types/) and the configuration layer (config/), never the plugin library, a plugin or the CLI.',
      severity: 'error',
      from: { path: '^kernel/' },
      to: { path: `^(sdk|plugins|bin|scripts|test)/|${TOP_LEVEL_FILE}` },
    },
    {
      name: 'kernel-npm-packages',
      comment: `The kernel's npm dependencies are ${KERNEL_PACKAGES.join(', ')}; a vendor SDK or UI belongs in a plugin.`,
      severity: 'error',
      from: { path: '^kernel/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: `node_modules/(${KERNEL_PACKAGES.join('|')})/` },
    },
    {
      name: 'types-and-config-stay-below-the-kernel',
      comment: 'types/ is the contract and config/ the configuration layer: neither reaches up into the kernel, the sdk, a plugin or the CLI.',
      severity: 'error',
      from: { path: '^(types|config)/' },
      to: { path: '^(kernel|sdk|plugins|bin)/' },
    },
    {
      name: 'plugin-imports-no-kernel',
      comment: 'A plugin talks to the kernel through hooks and TOKENS (types/), so a third-party plugin can do all a built-in one does.',
      severity: 'error',
      from: { path: '^plugins/[^/]+/' },
      to: { path: `^(kernel|bin)/|${TOP_LEVEL_FILE}` },
    },
    {
      name: 'plugin-imports-no-other-plugin',
      comment: 'Plugins share code through sdk/ or types/, never through each other\'s files.',
      severity: 'error',
      from: { path: '^plugins/([^/]+)/' },
      to: { path: '^plugins/', pathNot: '^plugins/$1/' },
    },
    {
      name: 'sdk-stays-a-library',
      comment: 'sdk/ (mewcode/sdk) builds on types/ (and uses config/ helpers); it never imports the kernel, a plugin or the CLI.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: `^(kernel|plugins|bin)/|${TOP_LEVEL_FILE}` },
    },
    {
      name: 'sdk-does-not-re-export-config',
      comment: 'config/ is the host\'s configuration layer, not part of the plugin library: its helpers for plugins are exported by the `mewcode` entry (index.ts). This rule sees `export … from`; test/architecture/sdk-exports.test.ts checks every other way a config/ name could leave through sdk/index.ts.',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: '^config/', dependencyTypes: ['export'] },
    },
    {
      name: 'sdk-uses-named-config-modules',
      comment: 'What sdk/ takes from config/ ships to every plugin as mewcode/sdk, so each module is named here with its reason: config/terminal-safe.ts (vendor SDK log lines are filtered like every other terminal write); config/nesting-depth.ts (the frontmatter reader refuses a too deeply nested text as the settings reader does).',
      severity: 'error',
      from: { path: '^sdk/' },
      to: { path: '^config/', pathNot: '^config/(terminal-safe|nesting-depth)\\.ts$' },
    },
    {
      name: 'api-builds-on-the-boot',
      comment: 'The programmatic API (api/) is a front end like the CLI: it boots through bin/open-run.ts with the default set (plugins/default-set.ts), and reaches no plugin\'s or other CLI module\'s internals.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: `^(plugins|bin)/|${TOP_LEVEL_FILE}`, pathNot: '^(plugins/default-set|bin/open-run)\\.ts$' },
    },
    {
      name: 'api-is-reached-through-the-entry',
      comment: 'api/ is published through the `mewcode` entry (index.ts); the kernel, plugins, sdk and CLI do not depend on it.',
      severity: 'error',
      from: { path: '^(types|config|kernel|sdk|plugins|bin)/' },
      to: { path: '^api/' },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes load order matter and the modules impossible to read one at a time. Move what both sides need into a module of its own.',
      severity: 'error',
      from: { pathNot: '^types/' },
      to: { circular: true },
    },
    {
      name: 'types-cycles-are-type-only',
      comment: 'Named exception: the contract\'s declarations refer to each other (a tool\'s context names its session, a session\'s hooks name tools, hook payloads name both). These imports are `import type`, erased at build, so they order nothing at run time; a value import closing such a cycle is an error.',
      severity: 'error',
      from: { path: '^types/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // dist/ is not followed, but not excluded either: an import that resolves into it (the package's
    // own name) must stay in the graph for no-self-reference to see.
    doNotFollow: { path: ['node_modules', '^dist/'] },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
