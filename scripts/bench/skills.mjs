// Skills (issue 12): what a catalog of 200 skills costs — scanning and validating the folders
// (`loadCatalog`), a kernel boot with the skills plugin against one without it, and the bytes the
// catalog adds to the stable system prompt (against the bodies it keeps out of it). References
// are measured in the same invocation: reading the same 200 SKILL.md files with no parsing.
// The harness is bundled from the sources with esbuild (no `npm run build` needed).
//
//   node scripts/bench/skills.mjs [runs]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, runSourceHarness } from './harness.mjs';

const SKILLS = 200;

const HARNESS = `
import 'reflect-metadata';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Kernel } from ${JSON.stringify(path.join(ROOT, 'kernel/kernel.ts'))};
import { MemoryReporter } from ${JSON.stringify(path.join(ROOT, 'kernel/reporter.ts'))};
import { memoryEnv, memoryModel } from ${JSON.stringify(path.join(ROOT, 'test/support/memory-provider.ts'))};
import { loadCatalog } from ${JSON.stringify(path.join(ROOT, 'plugins/skills/catalog.ts'))};
import { renderCatalog } from ${JSON.stringify(path.join(ROOT, 'plugins/skills/render.ts'))};
import { skillRoots } from ${JSON.stringify(path.join(ROOT, 'plugins/skills/roots.ts'))};
import skills from ${JSON.stringify(path.join(ROOT, 'plugins/skills/index.ts'))};

const config = JSON.parse(process.env.MEWCODE_SKILLS_BENCH);
// The usual case: your own skills (~/.mewcode/skills). Beside it, the same 200 as an untrusted
// project's, where every folder is also searched for scripts.
const roots = skillRoots(config.home, config.emptyProject);
const projectRoots = skillRoots(config.emptyHome, config.project);
const noWatch = { layers: [], warnings: [], section: (key) => (key === 'skills' ? { watch: false } : undefined), locate: () => undefined };

async function floor() {
  const dir = path.join(config.home, '.mewcode', 'skills');
  const names = await readdir(dir);
  await Promise.all(names.map((name) => readFile(path.join(dir, name, 'SKILL.md'), 'utf8')));
}

async function boot(withSkills) {
  const kernel = await Kernel.create({ plugins: [memoryModel([]).plugin, ...(withSkills ? [skills] : [])], projectRoot: config.emptyProject, homeDir: config.home, env: memoryEnv, reporter: new MemoryReporter(), config: noWatch });
  const prompt = kernel.systemPrompt();
  await kernel.shutdown();
  return prompt;
}

const samples = { load: [], project: [], floor: [], boot: [], bootBare: [] };
let catalog;
for (let i = -config.warmup; i < config.runs; i++) {
  let t = performance.now();
  catalog = await loadCatalog(roots, { projectTrusted: false });
  if (i >= 0) samples.load.push(performance.now() - t);
  t = performance.now();
  await loadCatalog(projectRoots, { projectTrusted: false });
  if (i >= 0) samples.project.push(performance.now() - t);
  t = performance.now();
  await floor();
  if (i >= 0) samples.floor.push(performance.now() - t);
  t = performance.now();
  await boot(true);
  if (i >= 0) samples.boot.push(performance.now() - t);
  t = performance.now();
  await boot(false);
  if (i >= 0) samples.bootBare.push(performance.now() - t);
}
const withSkills = await boot(true);
const without = await boot(false);
let bodies = 0;
for (const skill of catalog.skills) bodies += Buffer.byteLength(await readFile(skill.file, 'utf8'));
process.stdout.write(JSON.stringify({ samples, skills: catalog.skills.length, problems: catalog.problems.length, catalogBytes: Buffer.byteLength(renderCatalog(catalog.skills)), promptWith: Buffer.byteLength(withSkills), promptWithout: Buffer.byteLength(without), bodies }));
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.9) - 1)];

/** 200 folders as people write them: a description of one or two sentences, a 2–4 KB body, some reference files. */
function writeSkills(dir) {
  const verbs = ['Review', 'Draft', 'Migrate', 'Profile', 'Document', 'Release', 'Triage', 'Refactor'];
  for (let i = 0; i < SKILLS; i++) {
    const name = `skill-${String(i).padStart(3, '0')}`;
    const folder = path.join(dir, name);
    mkdirSync(folder, { recursive: true });
    const description = `${verbs[i % verbs.length]} the ${name} area of the codebase following the team's checklist. Use when the user asks about ${name} or its tests.`;
    const body = Array.from({ length: 20 + (i % 20) }, (_, k) => `${k + 1}. Step ${k + 1} of the ${name} procedure: check the inputs, run the tests, and write down what changed.`).join('\n');
    writeFileSync(path.join(folder, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\nallowed-tools: Read, Grep, Bash(npm test:*)\nlicense: MIT\n---\n\n# ${name}\n\n${body}\n`);
    if (i % 4 === 0) {
      mkdirSync(path.join(folder, 'references'));
      writeFileSync(path.join(folder, 'references', 'notes.md'), `# Notes for ${name}\n`);
    }
  }
}

export async function benchSkills({ runs = 20, warmup = 3 } = {}) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-skills-bench-'));
  try {
    const [home, project, emptyHome, emptyProject] = ['home', 'project', 'empty-home', 'empty-project'].map((name) => path.join(work, name));
    for (const dir of [emptyHome, emptyProject]) mkdirSync(dir);
    writeSkills(path.join(home, '.mewcode', 'skills'));
    writeSkills(path.join(project, '.mewcode', 'skills'));
    const r = await runSourceHarness(work, HARNESS, 'MEWCODE_SKILLS_BENCH', { home, project, emptyHome, emptyProject, runs, warmup }, 'skills bench');
    if (r.skills !== SKILLS || r.problems !== 0) throw new Error(`expected ${SKILLS} skills without problems, got ${r.skills} and ${r.problems} problems`);
    const ms = (v) => `${v.toFixed(2)} ms`;
    const bytes = (v) => `${v.toLocaleString('en-US')} B`;
    const s = r.samples;
    const rows = [
      `| ${SKILLS} skills | Median | p90 | Reference (median, same run) | Ratio |`,
      '| --- | --- | --- | --- | --- |',
      `| \`loadCatalog\`: scan, read, parse and validate every SKILL.md (~/.mewcode/skills) | ${ms(median(s.load))} | ${ms(p90(s.load))} | \`readdir\` + \`readFile\` of the same files, no parsing: ${ms(median(s.floor))} | ${(median(s.load) / median(s.floor)).toFixed(2)}× |`,
      `| the same 200 as an untrusted project's (each folder also searched for scripts) | ${ms(median(s.project))} | ${ms(p90(s.project))} | your own: ${ms(median(s.load))} | +${ms(median(s.project) - median(s.load))} |`,
      `| kernel boot + stable prompt, with the skills plugin | ${ms(median(s.boot))} | ${ms(p90(s.boot))} | the same boot without it: ${ms(median(s.bootBare))} | +${ms(median(s.boot) - median(s.bootBare))} |`,
      `| stable system prompt | ${bytes(r.promptWith)} | — | without the skills plugin: ${bytes(r.promptWithout)} | catalog +${bytes(r.catalogBytes)} (${Math.round(r.catalogBytes / SKILLS)} B a skill) |`,
      `| what progressive disclosure keeps out of it: the ${SKILLS} SKILL.md files | ${bytes(r.bodies)} | — | the catalog: ${bytes(r.catalogBytes)} | ${(r.bodies / r.catalogBytes).toFixed(1)}× smaller |`,
    ];
    return { markdown: `${rows.join('\n')}\n\n${runs} runs of each after ${warmup} warm-up runs, in one process bundled from the sources; ${SKILLS} skills in \`~/.mewcode/skills\` with one- or two-sentence descriptions, 2–4 KB bodies and a reference folder in every fourth; the file watcher off. The boot rows include building the stable prompt once (\`kernel.systemPrompt()\`) and shutting down.` };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { markdown } = await benchSkills({ runs: Number(process.argv[2] ?? 20) });
  process.stdout.write(`${markdown}\n`);
}
