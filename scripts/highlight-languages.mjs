// The highlight.js the bundle gives cli-highlight (marked-terminal's code highlighter, in the
// terminal UI's chunk): scripts/third-party-redirects.mjs maps `highlight.js` here. The core with
// the languages code blocks usually hold — the most used languages on GitHub and the formats
// around them — instead of all 190 (1.4 MB); a block in another language is shown unhighlighted.
// highlight.js 10 is cli-highlight's dependency, not ours: bundling only, and the imports below
// resolve as cli-highlight's own do (to the copy scripts/patches.mjs verified), not from here.
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import clojure from 'highlight.js/lib/languages/clojure';
import cmake from 'highlight.js/lib/languages/cmake';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import dart from 'highlight.js/lib/languages/dart';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import elixir from 'highlight.js/lib/languages/elixir';
import elm from 'highlight.js/lib/languages/elm';
import erlang from 'highlight.js/lib/languages/erlang';
import fsharp from 'highlight.js/lib/languages/fsharp';
import go from 'highlight.js/lib/languages/go';
import groovy from 'highlight.js/lib/languages/groovy';
import haskell from 'highlight.js/lib/languages/haskell';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import julia from 'highlight.js/lib/languages/julia';
import kotlin from 'highlight.js/lib/languages/kotlin';
import latex from 'highlight.js/lib/languages/latex';
import less from 'highlight.js/lib/languages/less';
import lua from 'highlight.js/lib/languages/lua';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import matlab from 'highlight.js/lib/languages/matlab';
import nix from 'highlight.js/lib/languages/nix';
import objectivec from 'highlight.js/lib/languages/objectivec';
import ocaml from 'highlight.js/lib/languages/ocaml';
import perl from 'highlight.js/lib/languages/perl';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import powershell from 'highlight.js/lib/languages/powershell';
import protobuf from 'highlight.js/lib/languages/protobuf';
import python from 'highlight.js/lib/languages/python';
import r from 'highlight.js/lib/languages/r';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import scala from 'highlight.js/lib/languages/scala';
import scss from 'highlight.js/lib/languages/scss';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import vbnet from 'highlight.js/lib/languages/vbnet';
import x86asm from 'highlight.js/lib/languages/x86asm';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const languages = { bash, c, clojure, cmake, cpp, csharp, css, dart, diff, dockerfile, elixir, elm, erlang, fsharp, go, groovy, haskell, ini, java, javascript, json, julia, kotlin, latex, less, lua, makefile, markdown, matlab, nix, objectivec, ocaml, perl, php, plaintext, powershell, protobuf, python, r, ruby, rust, scala, scss, shell, sql, swift, typescript, vbnet, x86asm, xml, yaml };
for (const [name, language] of Object.entries(languages)) hljs.registerLanguage(name, language);

// cli-highlight reads the module as CommonJS (`require("highlight.js").highlight(…)`): named exports.
export default hljs;
export const highlight = hljs.highlight.bind(hljs);
export const highlightAuto = hljs.highlightAuto.bind(hljs);
export const listLanguages = hljs.listLanguages.bind(hljs);
export const getLanguage = hljs.getLanguage.bind(hljs);
