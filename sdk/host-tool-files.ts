/**
 * Files in a project that a tool on the user's machine acts on when the folder is opened or
 * entered, or when its toolchain is asked for anything (a version, in a prompt): one table, read
 * by the OS sandbox (read-only mounts at the root, the sweep after each command) and by the rules
 * layer (the file tools ask), so the two cannot drift apart. MewCode's own files and Claude Code's
 * (`.mewcode*`, `.claude`, `.mcp.json`), which MewCode itself reads, are listed beside their
 * readers (sandbox-os/policy.ts, permission-rules/protected-paths.ts).
 *
 * Two kinds:
 * - `settings`: a folder or file that IS a list of programs to run (an editor's tasks, another
 *   agent's MCP servers, hooks and plugins): protected whole, as `.claude` is. At the project's
 *   root the sandbox keeps it read-only (`mount`: blocked by an empty read-only directory while
 *   missing), or, for a name a command may glob or a tool may read inside the sandbox (`present`:
 *   `opencode.json`, `*.code-workspace`, pnpm's `.pnpmfile.cjs`), read-only when it is there and
 *   set aside after a command that made it. Below the root (a monorepo's package, opened on its
 *   own) one made or changed during a command is set aside. The file tools ask at any depth.
 * - `toolchain`: a version or package-manager setting agents legitimately change (a Node bump in
 *   `.tool-versions`), that counts only when its content names a program or a path
 *   (host-tool-content.ts). At any depth, the root included (no mount: the model must be able to
 *   bump a version): one made or changed during a command that names one is set aside, and the
 *   file tools ask before writing such content.
 *
 * Names are compared without case, as the sandbox's other names are: the project may sit on a
 * filesystem that ignores it.
 */
import {
  judgeCargoConfig,
  judgeGlobalJson,
  judgeGradleDaemonJvmProperties,
  judgeGradleProperties,
  judgeGradleWrapperProperties,
  judgeHgrc,
  judgeJjRepoConfig,
  judgeJvmConfig,
  judgeMavenConfig,
  judgeMavenExtensions,
  judgeMavenWrapperProperties,
  judgeMiseToml,
  judgeNpmrc,
  judgePnpmWorkspace,
  judgePythonIndexConfig,
  judgeRustToolchain,
  judgeYarnrcYml,
} from './host-tool-content.js';
import { judgeCorepackEnv, judgeInjectedEnv, judgeRvmVersionsConf } from './host-tool-env-content.js';
import { judgeCabalProject, judgeDevboxJson, judgeHieYaml, judgePixiManifest, judgeStackYaml } from './host-tool-env-managers.js';
import { judgeNodeVersionFile, judgePythonVersionFile, judgeSdkmanrc, judgeToolVersions, judgeVersionFile } from './host-tool-versions.js';

export interface HostSettings {
  /** An entry's name (lower case), or a pattern over it. */
  name: string | RegExp;
  atRoot: 'mount' | 'present';
  /** What it is, for messages. */
  what: string;
}

export interface HostToolchainFile {
  /** Over the path relative to the project (lower case, `/`), anchored at a name's start. */
  path: RegExp;
  /** The same test on the last name alone, to pick candidates cheaply while walking a tree. */
  name: RegExp;
  what: string;
  /** Who acts on it, and when: the end of the sweep's warning. */
  runBy: string;
  /** What in it names a program or a path, or undefined. */
  judge(text: string): string | undefined;
}

const EDITOR = "the editor's project settings (the editor runs what they name)";
const AGENT = "another coding agent's project settings (it runs the servers, hooks or plugins they name when it starts)";

const settings = (names: readonly (string | RegExp)[], atRoot: HostSettings['atRoot'], what: string): HostSettings[] => names.map((name) => ({ name, atRoot, what }));

/** One line each: where the tool documents it. */
export const HOST_SETTINGS: readonly HostSettings[] = [
  // VS Code tasks (runOn: folderOpen), interpreters and git paths; JetBrains run configurations;
  // Zed's and Helix's language-server commands.
  ...settings(['.vscode', '.idea', '.zed', '.helix', '.theia'], 'mount', EDITOR),
  // A VS Code multi-root workspace file holds settings, tasks and launch configurations as `.vscode/` does.
  ...settings([/\.code-workspace$/], 'present', EDITOR),
  // JetBrains run configurations stored beside the project (`.run/*.run.xml`).
  ...settings(['.run'], 'mount', EDITOR),
  // coc.nvim's `.vim/coc-settings.json`: `languageserver.*.command` started when Vim opens a file, no trust step.
  ...settings(['.vim'], 'present', EDITOR),
  // A dev container's initializeCommand runs on the host when the folder is reopened in a container.
  ...settings(['.devcontainer', '.devcontainer.json'], 'mount', "the dev container's settings (its initializeCommand runs on your machine)"),
  // Skills the next agent session (MewCode's or another agent's) loads into its prompt.
  ...settings(['.agents'], 'mount', 'the skills agents load into their next session'),
  // git-lfs reads lfs.url from it: where the user's next checkout or pull sends its requests.
  ...settings(['.lfsconfig'], 'mount', 'the git-lfs configuration (where git-lfs sends its requests)'),
  // opencode: `opencode.json(c)` local MCP commands; `.opencode/plugin/*.js` imported at start, no trust step.
  ...settings(['.opencode'], 'mount', AGENT),
  ...settings(['opencode.json', 'opencode.jsonc'], 'present', AGENT),
  // Gemini CLI and its fork Qwen Code: `settings.json` mcpServers, hooks (trust is by folder path).
  ...settings(['.gemini', '.qwen'], 'mount', AGENT),
  // Codex: `.codex/config.toml` mcp_servers in a trusted project.
  ...settings(['.codex'], 'mount', AGENT),
  // Cursor (`mcp.json`, `hooks.json`), Continue (`mcpServers/`), Roo Code and Kilo Code
  // (`mcp.json`), Cline (`.clinerules/hooks/`), Kiro (`settings/mcp.json`, `hooks/`), Amazon Q
  // (`mcp.json`), Windsurf, Junie (`mcp/`), OpenHands (`setup.sh`, run at every session's start).
  ...settings(['.cursor', '.continue', '.roo', '.kilocode', '.clinerules', '.kiro', '.amazonq', '.windsurf', '.junie', '.openhands'], 'mount', AGENT),
  // Factory's Droid (`.factory/settings.json` hooks), Augment's Auggie (`.augment/settings.json`
  // hooks), Mistral's Vibe (`.vibe/config.toml` MCP servers), iFlow CLI and Qoder (their settings' hooks and MCP servers).
  ...settings(['.factory', '.augment', '.vibe', '.iflow', '.qoder'], 'mount', AGENT),
  // Crush: MCP and LSP commands.
  ...settings(['.crush.json'], 'mount', AGENT),
  ...settings(['crush.json'], 'present', AGENT),
  // Aider: `lint-cmd`, `test-cmd` and the rest of its command line.
  ...settings(['.aider.conf.yml'], 'mount', AGENT),
  // pnpm loads it at every install, `--ignore-scripts` included: it is code, whatever it holds.
  ...settings(['.pnpmfile.cjs', '.pnpmfile.mjs'], 'present', "pnpm's hooks file (pnpm runs it at every install, even with --ignore-scripts)"),
  // Run from the folder a REPL or debugger starts in: pdb's `.pdbrc` (`python -m pdb`,
  // `breakpoint()`, `pytest --pdb`), `perl -d`'s `.perldb`, irb's `.irbrc`/`_irbrc`/`$irbrc` (and
  // `rails console`), pry's `.pryrc`; R's `.Rprofile` and `.Renviron` (R_PROFILE_USER, R_LIBS_USER),
  // at R's start there and when RStudio or Positron opens the folder;
  // GHCi's `.ghci`, IEx's `.iex.exs`, OCaml's and utop's `.ocamlinit`; what the Python REPL imports
  // from the current folder as it starts: `readline`, `rlcompleter`, and Python 3.13's `_pyrepl`,
  // `code`, `codeop` and `traceback`.
  ...settings(
    ['.pdbrc', '.perldb', '.irbrc', '_irbrc', '$irbrc', '.pryrc', '.rprofile', '.renviron', '.ghci', '.iex.exs', '.ocamlinit'],
    'present',
    'code a REPL or debugger started in this folder runs (pdb, perl -d, irb, pry, R, GHCi, IEx, OCaml)',
  ),
  // (A folder of those names without `__init__.py` shadows nothing, and `code/` is a common folder: files only, but `_pyrepl`.)
  ...settings(['readline.py', 'rlcompleter.py', 'code.py', 'codeop.py', 'traceback.py', '_pyrepl', '_pyrepl.py'], 'present', 'a module the Python REPL started in this folder imports from it'),
  // Vim's and Neovim's per-folder startup files, read with `set exrc` (common in a ~/.vimrc) from the
  // folder Vim starts in, `git commit`'s editor included (`secure` still lets a mapping run a command).
  ...settings(['.exrc', '_exrc', '.vimrc', '_vimrc', '.gvimrc', '_gvimrc', '.nvimrc', '.nvim.lua'], 'present', "the editor's startup file for this folder (Vim with `set exrc` runs what it holds)"),
  // mise's early settings, read with no trust step: `override_tool_versions_filenames` makes any file a tool-version file, whose `path:` needs no trust.
  ...settings(['.miserc.toml', 'miserc.toml'], 'present', "mise's early settings (they rename the files mise reads when you enter the folder)"),
  // bazelisk: BAZELISK_BASE_URL, where the bazel it runs at every `bazel` (`bazel --version` included) is downloaded from.
  ...settings(['.bazeliskrc'], 'present', "bazelisk's settings (where the bazel it runs is downloaded from)"),
  // Eclipse's external tool builders (`*.launch`), run by auto-build once the project is imported.
  ...settings(['.externalToolBuilders'.toLowerCase()], 'present', EDITOR),
  // lazygit reads `.lazygit.yml` in every folder above a repository it opens (a nested one's, a
  // submodule's), with no trust step: its pager runs as soon as a diff shows.
  ...settings(['.lazygit.yml'], 'present', "lazygit's settings for the repositories below this folder (lazygit runs the pager and commands they name when you open one)"),
  // Tag indexers run in the project by hand or by an editor plugin (vim-gutentags, ggtags): Universal
  // Ctags reads `.ctags.d/*.ctags` and `ctags.d/*.ctags`, Exuberant Ctags `.ctags`, from the folder it
  // runs in (`-f ~/.bash_aliases` with a made-up language writes any line there: a red team's); GNU
  // GLOBAL's `gtags.conf` names the parser plugins gtags loads.
  ...settings(['.ctags', '.ctags.d', 'ctags.d', 'gtags.conf'], 'present', 'the tag indexer\'s options for this folder (ctags and gtags write the files and load the parsers they name)'),
  // Not here: what a tool installs into the project and runs (Terraform's `.terraform` providers,
  // an opam `_opam` switch, a `.flutter` SDK, PDM's `.pdm-python`, R's `.RData`): the tool writes
  // them at every `init` or install, so they are its state, not settings (docs/safety.md, left open).
];

const MISE = 'mise would have run what it names when you enter the folder (mise trusts a configuration by its path, not by what it holds)';

export const HOST_TOOLCHAIN_FILES: readonly HostToolchainFile[] = [
  {
    // asdf and mise: `node path:<dir>` puts `<dir>/bin` first on PATH at `cd`, with no trust asked.
    path: /(?:^|\/)\.tool-versions$/,
    name: /^\.tool-versions$/,
    what: 'a tool-version file (asdf, mise)',
    runBy: 'mise or asdf would have put what it names first on PATH when you enter the folder',
    judge: judgeToolVersions,
  },
  {
    // nvm, fnm, nodenv and mise (as `.tool-versions`): `lts/<name>` is the one slash they take.
    path: /(?:^|\/)\.(?:nvmrc|node-version)$/,
    name: /^\.(?:nvmrc|node-version)$/,
    what: "Node's version file (.nvmrc, .node-version)",
    runBy: 'nvm, fnm, nodenv or mise would have put what it names first on PATH when you enter the folder or run node there',
    judge: judgeNodeVersionFile,
  },
  {
    // pyenv (and uv, mise): `<version>/envs/<name>` (pyenv-virtualenv) is the one slash it takes.
    path: /(?:^|\/)\.python-versions?$/,
    name: /^\.python-versions?$/,
    what: "Python's version file (.python-version)",
    runBy: 'pyenv, uv or mise would have put what it names first on PATH when you enter the folder or run python there',
    judge: judgePythonVersionFile,
  },
  {
    // A tool's own version manager joins the version to its versions folder (rbenv, chruby and RVM,
    // whose `.ruby-gemset` names a gem folder whose bin goes on PATH; jenv; goenv; tfenv, tofuenv,
    // plenv, phpenv, swiftenv), and mise
    // reads these as `.tool-versions`, `path:` included.
    path: /(?:^|\/)\.(?:ruby-version|rbenv-version|rbfu-version|ruby-gemset|java-version|go-version|bun-version|yvmrc|terraform-version|opentofu-version|perl-version|php-version|swift-version)$/,
    name: /^\.(?:ruby-version|rbenv-version|rbfu-version|ruby-gemset|java-version|go-version|bun-version|yvmrc|terraform-version|opentofu-version|perl-version|php-version|swift-version)$/,
    what: "a tool's version file (.java-version, .ruby-version, .go-version…)",
    runBy: 'its version manager (jenv, rbenv, RVM, goenv, tfenv…) or mise would have put what it names first on PATH when you enter the folder or run the tool there',
    judge: judgeVersionFile,
  },
  {
    // SDKMAN! with sdkman_auto_env: `candidates/<candidate>/<version>/bin` first on PATH at `cd`; mise reads it too.
    path: /(?:^|\/)\.sdkmanrc$/,
    name: /^\.sdkmanrc$/,
    what: "SDKMAN!'s version file (.sdkmanrc)",
    runBy: 'SDKMAN! would have put what it names first on PATH when you enter the folder (sdkman_auto_env)',
    judge: judgeSdkmanrc,
  },
  {
    // RVM, at `cd`: `env-PATH=`, `ruby-bundle-install=`…
    path: /(?:^|\/)\.versions\.conf$/,
    name: /^\.versions\.conf$/,
    what: "RVM's project settings (.versions.conf)",
    runBy: 'RVM would have applied what it names when you enter the folder',
    judge: judgeRvmVersionsConf,
  },
  {
    // corepack (Node 20's `corepack enable`): COREPACK_HOME, COREPACK_NPM_REGISTRY… for every shim run beside the package.json.
    path: /(?:^|\/)\.corepack\.env$/,
    name: /^\.corepack\.env$/,
    what: "corepack's variables (.corepack.env)",
    runBy: 'corepack would have run the package manager it points to at your next yarn, pnpm or npm command there (`yarn --version` included)',
    judge: judgeCorepackEnv,
  },
  {
    // Variables a tool sets for what it runs: Yarn 4 (every script and binary), RVM (at `cd`), rbenv-vars (every ruby).
    path: /(?:^|\/)\.(?:env\.yarn|ruby-env|rbenv-vars)$/,
    name: /^\.(?:env\.yarn|ruby-env|rbenv-vars)$/,
    what: 'variables a tool sets for what it runs (.env.yarn, .ruby-env, .rbenv-vars)',
    runBy: 'yarn (every script and binary), RVM (at cd) or rbenv-vars (every ruby) would have set them for the programs they run there',
    judge: judgeInjectedEnv,
  },
  {
    // mise: mise.toml, .mise.toml, mise.local.toml, mise.<env>.toml, .config/mise.toml, .rtx.toml.
    path: /(?:^|\/)\.?(?:mise|rtx)(?:\.[^/]+)?\.toml$/,
    name: /^\.?(?:mise|rtx)(?:\.[^/]+)?\.toml$/,
    what: "mise's configuration",
    runBy: MISE,
    judge: judgeMiseToml,
  },
  {
    // mise: .config/mise/config.toml, .config/mise/conf.d/*.toml, .mise/config.toml, mise/config.toml.
    path: /(?:^|\/)(?:\.config\/mise|\.mise|mise)\/(?:conf\.d\/[^/]+|config(?:\.[^/]+)?|mise(?:\.[^/]+)?)\.toml$/,
    name: /\.toml$/,
    what: "mise's configuration",
    runBy: MISE,
    judge: judgeMiseToml,
  },
  {
    // rustup: `[toolchain] path = "<dir>"` runs `<dir>/bin/rustc` at every rustc or cargo there.
    path: /(?:^|\/)rust-toolchain(?:\.toml)?$/,
    name: /^rust-toolchain(?:\.toml)?$/,
    what: "rustup's toolchain file",
    runBy: 'rustup would have run the toolchain it names at your next rustc or cargo there (a prompt asking the version is enough)',
    judge: judgeRustToolchain,
  },
  {
    // Gradle: the daemon's JVM options and JDK, started by every build there and by an IDE's Gradle sync when the folder opens.
    path: /(?:^|\/)gradle\.properties$/,
    name: /^gradle\.properties$/,
    what: "Gradle's properties (gradle.properties)",
    runBy: 'Gradle would have started its daemon with them at your next build there, and an IDE at its Gradle sync when the folder opens',
    judge: judgeGradleProperties,
  },
  {
    // The Gradle wrapper: the distribution `./gradlew` and an IDE's Gradle sync download and run.
    path: /(?:^|\/)gradle\/wrapper\/gradle-wrapper\.properties$/,
    name: /^gradle-wrapper\.properties$/,
    what: "the Gradle wrapper's settings (gradle-wrapper.properties)",
    runBy: 'the Gradle wrapper would have downloaded and run the Gradle it names at your next ./gradlew there, and an IDE at its Gradle sync',
    judge: judgeGradleWrapperProperties,
  },
  {
    // Gradle: the JDK the daemon runs on, downloaded from `toolchainUrl.*` by a build or an IDE's Gradle sync.
    path: /(?:^|\/)gradle\/gradle-daemon-jvm\.properties$/,
    name: /^gradle-daemon-jvm\.properties$/,
    what: "Gradle's daemon JVM settings (gradle-daemon-jvm.properties)",
    runBy: 'Gradle would have downloaded and run the JDK it names at your next build there, and an IDE at its Gradle sync',
    judge: judgeGradleDaemonJvmProperties,
  },
  {
    // Cargo: `build.rustc`, `rustc-wrapper`, a target's runner or linker… run at `cargo metadata`, which rust-analyzer runs when the folder opens.
    path: /(?:^|\/)\.cargo\/config(?:\.toml)?$/,
    name: /^config(?:\.toml)?$/,
    what: "Cargo's configuration (.cargo/config.toml)",
    runBy: 'cargo would have run the programs it names at your next cargo command there, and an editor at opening the folder (rust-analyzer runs `cargo metadata`)',
    judge: judgeCargoConfig,
  },
  {
    // pip reads a virtual environment's own `pip.conf` (`pip.ini` on Windows) whenever it is active; uv reads `uv.toml` in the project.
    path: /(?:^|\/)(?:pip\.(?:conf|ini)|uv\.toml)$/,
    name: /^(?:pip\.(?:conf|ini)|uv\.toml)$/,
    what: "pip's or uv's settings (pip.conf, uv.toml)",
    runBy: 'pip or uv would have fetched packages from where it says (and run their build) at your next install there',
    judge: judgePythonIndexConfig,
  },
  {
    // Mercurial: a repository's hgrc runs [hooks] and loads [extensions] for the user who owns it.
    path: /(?:^|\/)\.hg\/hgrc(?:-not-shared)?$/,
    name: /^hgrc(?:-not-shared)?$/,
    what: "Mercurial's repository configuration (.hg/hgrc)",
    runBy: 'hg would have run the hooks and loaded the extensions it names at your next hg command there (`hg status` included)',
    judge: judgeHgrc,
  },
  {
    // Jujutsu before 0.38 read a repository's configuration from inside it.
    path: /(?:^|\/)\.jj\/repo\/config\.toml$/,
    name: /^config\.toml$/,
    what: "Jujutsu's repository configuration (.jj/repo/config.toml)",
    runBy: 'jj would have run the programs it names at your next jj command there',
    judge: judgeJjRepoConfig,
  },
  {
    // Yarn 2+: yarnPath, plugins; Yarn 1 obeys yarnPath too.
    path: /(?:^|\/)\.yarnrc\.yml$/,
    name: /^\.yarnrc\.yml$/,
    what: "Yarn's settings",
    runBy: 'yarn would have run what it names at your next yarn command there (`yarn --version` included)',
    judge: judgeYarnrcYml,
  },
  {
    // Yarn 1: `yarn-path`; npm, pnpm and Yarn 1: `git=`, `script-shell=`, `node-options=`…
    path: /(?:^|\/)\.(?:yarnrc|npmrc)$/,
    name: /^\.(?:yarnrc|npmrc)$/,
    what: "the package manager's settings (.npmrc, .yarnrc)",
    runBy: 'npm, pnpm or yarn would have run what it names at your next install there (--ignore-scripts does not stop it)',
    judge: judgeNpmrc,
  },
  {
    // pnpm 10 reads its settings here too.
    path: /(?:^|\/)pnpm-workspace\.yaml$/,
    name: /^pnpm-workspace\.yaml$/,
    what: "pnpm's settings",
    runBy: 'pnpm would have run what it names at your next install there',
    judge: judgePnpmWorkspace,
  },
  {
    // .NET 10: `sdk.paths` selects an SDK from a folder at every `dotnet` (`dotnet --version` included).
    path: /(?:^|\/)global\.json$/,
    name: /^global\.json$/,
    what: "the .NET SDK selection (global.json)",
    runBy: 'dotnet would have run the SDK it names at your next dotnet command there',
    judge: judgeGlobalJson,
  },
  {
    // Maven: the options of the JVM every `mvn` there starts (`mvn -v` included).
    path: /(?:^|\/)\.mvn\/jvm\.config$/,
    name: /^jvm\.config$/,
    what: "Maven's JVM options (.mvn/jvm.config)",
    runBy: 'mvn would have loaded what it names at your next mvn command there (`mvn -v` included)',
    judge: judgeJvmConfig,
  },
  {
    // Maven: arguments of every `mvn` there (`-Dmaven.ext.class.path=` loads a jar at `mvn -v`).
    path: /(?:^|\/)\.mvn\/maven\.config$/,
    name: /^maven\.config$/,
    what: "Maven's arguments (.mvn/maven.config)",
    runBy: 'mvn would have loaded what it names at your next mvn command there (`mvn -v` included)',
    judge: judgeMavenConfig,
  },
  {
    // The Maven wrapper: the Maven and the wrapper jar `./mvnw` (and an IDE's import through it) download and run.
    path: /(?:^|\/)\.mvn\/wrapper\/maven-wrapper\.properties$/,
    name: /^maven-wrapper\.properties$/,
    what: "the Maven wrapper's settings (.mvn/wrapper/maven-wrapper.properties)",
    runBy: 'the Maven wrapper would have downloaded and run what it names at your next ./mvnw there, and an IDE importing the project through it',
    judge: judgeMavenWrapperProperties,
  },
  {
    // bazelisk runs a workspace's `tools/bazel` instead of bazel at every `bazel` command there, `bazel --version` included.
    path: /(?:^|\/)tools\/bazel(?:\.(?:ps1|bat))?$/,
    name: /^bazel(?:\.(?:ps1|bat))?$/,
    what: "bazelisk's wrapper (tools/bazel)",
    runBy: 'bazelisk would have run it at your next bazel command there (`bazel --version` included)',
    judge: () => 'a program',
  },
  {
    // renv: the project's `.Rprofile` sources it at every R start there (and RStudio's when the folder opens).
    path: /(?:^|\/)renv\/activate\.r$/,
    name: /^activate\.r$/,
    what: "renv's activation script (renv/activate.R)",
    runBy: "R would have run it at its next start there (the project's .Rprofile sources it), RStudio when the folder opens",
    judge: () => 'R code',
  },
  {
    // nix-direnv (`use flake`, `use nix` in an allowed .envrc) evaluates the shell again when these
    // change, with no new `direnv allow`, and runs its shellHook (devenv: enterShell) at `cd`.
    path: /(?:^|\/)(?:flake|shell|default|devenv)\.nix$/,
    name: /^(?:flake|shell|default|devenv)\.nix$/,
    what: "a Nix shell's definition (flake.nix, shell.nix, devenv.nix)",
    runBy: "direnv's nix support would have run its shell hook when you enter the folder",
    judge: (text) => (/\bshellHook\b|\benterShell\b/.exec(text) ? 'a shell hook (shellHook, enterShell)' : undefined),
  },
  {
    // Sapling: a repository's own configuration, read as Mercurial's is (hooks, extensions).
    path: /(?:^|\/)\.sl\/config$/,
    name: /^config$/,
    what: "Sapling's repository configuration (.sl/config)",
    runBy: 'sl would have run the hooks and loaded the extensions it names at your next sl command there',
    judge: judgeHgrc,
  },
  {
    // devbox: `init_hook`, plugins, variables and flake packages, applied at `devbox shell` and, with direnv, at `cd`.
    path: /(?:^|\/)devbox\.json$/,
    name: /^devbox\.json$/,
    what: "devbox's settings (devbox.json)",
    runBy: 'devbox would have run what it names at your next devbox shell there, and direnv when you enter the folder',
    judge: judgeDevboxJson,
  },
  {
    // pixi: `[activation]` scripts, run when the environment is activated (pixi shell, pixi run, direnv's pixi shell-hook).
    path: /(?:^|\/)pixi\.toml$/,
    name: /^pixi\.toml$/,
    what: "pixi's manifest (pixi.toml)",
    runBy: 'pixi would have run its activation scripts at your next pixi shell or pixi run there, and direnv when you enter the folder',
    judge: (text) => judgePixiManifest(text, false),
  },
  {
    path: /(?:^|\/)pyproject\.toml$/,
    name: /^pyproject\.toml$/,
    what: "pixi's manifest (pyproject.toml's [tool.pixi])",
    runBy: 'pixi would have run its activation scripts at your next pixi shell or pixi run there, and direnv when you enter the folder',
    judge: (text) => judgePixiManifest(text, true),
  },
  {
    // The Haskell language server reads it when an editor opens the folder.
    path: /(?:^|\/)hie\.yaml$/,
    name: /^hie\.yaml$/,
    what: "the Haskell language server's cradle (hie.yaml)",
    runBy: 'the Haskell language server would have run what it names when an editor opens the folder',
    judge: judgeHieYaml,
  },
  {
    // cabal, and the language server through it when the folder opens.
    path: /(?:^|\/)cabal\.project(?:\.local|\.freeze)?$/,
    name: /^cabal\.project(?:\.local|\.freeze)?$/,
    what: "cabal's project settings (cabal.project)",
    runBy: 'cabal would have run the programs it names at your next cabal command there, and the Haskell language server when an editor opens the folder',
    judge: judgeCabalProject,
  },
  {
    path: /(?:^|\/)stack\.yaml$/,
    name: /^stack\.yaml$/,
    what: "Stack's project settings (stack.yaml)",
    runBy: 'stack would have run the programs it names at your next stack command there, and the Haskell language server when an editor opens the folder',
    judge: judgeStackYaml,
  },
  {
    // GitHub Copilot CLI (and VS Code's agent hooks) load every `.github/hooks/*.json` of the folder
    // they start in, its `sessionStart` commands included; the folder's trust is remembered by path.
    path: /(?:^|\/)\.github\/hooks\/[^/]+\.json$/,
    name: /\.json$/,
    what: "GitHub Copilot's hooks (.github/hooks/*.json)",
    runBy: 'Copilot CLI would have run the commands it names at its next start there',
    judge: () => 'commands a coding agent runs',
  },
  {
    // Maven: core extensions, fetched and loaded by every `mvn` there.
    path: /(?:^|\/)\.mvn\/extensions\.xml$/,
    name: /^extensions\.xml$/,
    what: "Maven's core extensions (.mvn/extensions.xml)",
    runBy: 'mvn would have loaded the extensions it names at your next mvn command there (`mvn -v` included)',
    judge: judgeMavenExtensions,
  },
];

const asciiLower = (name: string): string => (/[A-Z]/.test(name) ? name.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()) : name);

// Looked up for every name of every walk after every command: a set and one pattern each.
const SETTINGS_BY_NAME = new Map(HOST_SETTINGS.filter((entry) => typeof entry.name === 'string').map((entry) => [entry.name as string, entry]));
const SETTINGS_BY_PATTERN = HOST_SETTINGS.filter((entry) => typeof entry.name !== 'string');
const TOOLCHAIN_NAME = new RegExp(HOST_TOOLCHAIN_FILES.map((entry) => `(?:${entry.name.source})`).join('|'));

/** The `settings` entry an entry's name is, or undefined. */
export function hostSettingsFor(name: string): HostSettings | undefined {
  const lower = asciiLower(name);
  return SETTINGS_BY_NAME.get(lower) ?? SETTINGS_BY_PATTERN.find((entry) => (entry.name as RegExp).test(lower));
}

/** Names the sandbox keeps read-only at a writable root, blocked while missing. */
export const HOST_MOUNTED_NAMES: readonly string[] = HOST_SETTINGS.filter((entry) => entry.atRoot === 'mount').map((entry) => entry.name as string);

/** Whether `name` at a writable root is read-only when present, and set aside when a command made it. */
export const isHostPresentName = (name: string): boolean => hostSettingsFor(name)?.atRoot === 'present';

/**
 * Folders a toolchain file is read from by name (`.cargo/config.toml`, `.mvn/jvm.config`,
 * `gradle/wrapper/…`, `.hg/hgrc`, `.jj/repo/…`, `.sl/config`): one of these that is a LINK made or changed by a
 * command (or leading to what it changed) is set aside, since what the tool then reads through it
 * has no name the table knows (`.cargo -> stash`, `stash/config.toml` naming a rustc).
 */
const TOOLCHAIN_FOLDERS = new Set(['.cargo', '.mvn', 'gradle', '.hg', '.jj', '.sl']);
export const isToolchainFolderName = (name: string): boolean => TOOLCHAIN_FOLDERS.has(asciiLower(name));

/** Whether a file of this name may be a toolchain file (cheap: the walk asks it of every name). */
export function mayBeHostToolchainFile(name: string): boolean {
  return TOOLCHAIN_NAME.test(asciiLower(name));
}

/** The toolchain entry a path relative to the project (`/`-separated) is, or undefined. */
export function hostToolchainFileFor(relative: string): HostToolchainFile | undefined {
  const lower = asciiLower(relative);
  return HOST_TOOLCHAIN_FILES.find((entry) => entry.path.test(lower));
}

const escapeName = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a path may hold a `settings` name as one of its parts (one test instead of a lookup per part: asked of every entry of a changed index). */
const SETTINGS_IN_PATH = new RegExp(
  `(?:^|/)(?:${[...SETTINGS_BY_NAME.keys()].map(escapeName).join('|')})(?:/|$)|${SETTINGS_BY_PATTERN.map((entry) => (entry.name as RegExp).source.replace(/\$$/, '(?:/|$)')).join('|')}`,
  'i',
);

/** The `settings` entry a path relative to the project is, or is inside (any depth), or undefined. */
export function hostSettingsAt(relative: string): HostSettings | undefined {
  if (!SETTINGS_IN_PATH.test(relative)) return undefined;
  for (const part of relative.split('/')) {
    const found = hostSettingsFor(part);
    if (found) return found;
  }
  return undefined;
}

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A pattern for a text that may name one (an interpreter's program writing files). A name must
 * stand alone (`'.cursor/mcp.json'`, not `db.cursor()` or `subprocess.run`).
 */
export const HOST_SETTINGS_MENTION = new RegExp(
  HOST_SETTINGS.map((entry) => (typeof entry.name === 'string' ? `(?<![\\w$])${escapeRegex(entry.name)}(?![\\w-])` : entry.name.source.replace(/\$$/, ''))).join('|'),
  'i',
);

for (const entry of [...HOST_SETTINGS, ...HOST_TOOLCHAIN_FILES]) Object.freeze(entry);
Object.freeze(HOST_SETTINGS);
Object.freeze(HOST_TOOLCHAIN_FILES);
Object.freeze(HOST_MOUNTED_NAMES);
