// Turns the measurements into a Markdown section, and splices it into BENCHMARKS.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { mib, ms, ratio, summarize } from './stats.mjs';
import { PROJECT_FILES } from './harness.mjs';
import { USER_SETTINGS } from '../user-config-fixture.mjs';

export const START = '<!-- bench:kernel:start -->';
export const END = '<!-- bench:kernel:end -->';

const TARGETS = { versionMs: 80, firstRequestMs: 200, rssKiB: 120 * 1024, gapMs: 10 };

function status(medianValue, p90Value, limit) {
  if (!Number.isFinite(medianValue)) return 'not measured';
  if (medianValue > limit) return '**not met**';
  return p90Value > limit ? 'met (p90 over)' : 'met';
}

const bytes = (n) => (Number.isFinite(n) ? `${Math.round(n).toLocaleString('en-US')} B` : 'n/a');

/** Rows of [#, measurement, protocol, median, p90, reference, ratio, target, status]; plus the unmet list. */
export function buildRows(results) {
  const rows = [];
  const unmet = [];
  const push = (row, unmetLabel) => {
    rows.push(row);
    if (unmetLabel && row[8].includes('not met')) unmet.push(unmetLabel);
  };

  const a = results.version;
  const aCli = summarize(a.cli);
  const aRef = summarize(a.ref);
  push(['a', '`mewcode --version`, process wall time', '—', ms(aCli.median), ms(aCli.p90), `\`node -e ""\` ${ms(aRef.median)}`, ratio(aCli.median, aRef.median), `≤ ${TARGETS.versionMs} ms`, status(aCli.median, aCli.p90, TARGETS.versionMs)], `a. --version: median ${ms(aCli.median)} > ${TARGETS.versionMs} ms`);

  for (const [protocol, b] of Object.entries(results.firstRequest)) {
    const cli = summarize(b.cli);
    const exit = summarize(b.refExit);
    const fetch = summarize(b.refFetch);
    const httpRef = summarize(b.refHttp);
    push(
      ['b', '`mewcode -p hi`: spawn → first model request received', protocol, ms(cli.median), ms(cli.p90), `\`node -e ""\` ${ms(exit.median)}; bare-Node \`http.request\` ${ms(httpRef.median)}; bare-Node \`fetch\` ${ms(fetch.median)}`, `${ratio(cli.median, exit.median)} / ${ratio(cli.median, httpRef.median)} / ${ratio(cli.median, fetch.median)}`, `≤ ${TARGETS.firstRequestMs} ms`, status(cli.median, cli.p90, TARGETS.firstRequestMs)],
      `b. first request (${protocol}): median ${ms(cli.median)} > ${TARGETS.firstRequestMs} ms`,
    );
    if (b.refFloor?.length) {
      const floor = summarize(b.refFloor);
      push(['b', 'the stack floor (scripts/bench/stack-floor.mjs): reflect-metadata, inversify, tapable and the provider\'s client as MewCode builds it, one streamed request; b minus this is MewCode\'s own start-up work', protocol, ms(floor.median), ms(floor.p90), `\`mewcode -p hi\` (b) ${ms(cli.median)}: ${ms(cli.median - floor.median)} over the floor`, ratio(cli.median, floor.median), '—', '—']);
    }
    if (b.configured?.length) {
      const configured = summarize(b.configured);
      push(
        ['b', 'same, configured as a user: the provider in `~/.mewcode/config.yaml`, permission rules in `~/.mewcode/settings.yaml`', protocol, ms(configured.median), ms(configured.p90), `\`node -e ""\` ${ms(exit.median)}; unconfigured (b) ${ms(cli.median)}`, `${ratio(configured.median, exit.median)} / ${ratio(configured.median, cli.median)}`, `≤ ${TARGETS.firstRequestMs} ms`, status(configured.median, configured.p90, TARGETS.firstRequestMs)],
        `b. first request, configured (${protocol}): median ${ms(configured.median)} > ${TARGETS.firstRequestMs} ms`,
      );
    }
  }

  if (results.interactive) {
    const cli = summarize(results.interactive.cli);
    const ref = summarize(results.interactive.ref);
    push(['i', '`mewcode` in a terminal (a pty from script(1)): spawn → the input prompt drawn', '—', ms(cli.median), ms(cli.p90), `\`node -e ""\` in the same pty, spawn → exit ${ms(ref.median)}`, ratio(cli.median, ref.median), '—', '—']);
  }

  for (const [protocol, s] of Object.entries(results.session)) {
    const wall = summarize(s.wall);
    const refWall = summarize(s.refWall);
    const fetchWall = summarize(s.fetchWall);
    push(['c', 'two-turn session with an external-plugin tool, wall time (spawn → exit)', protocol, ms(wall.median), ms(wall.p90), `\`node -e ""\` ${ms(refWall.median)}; bare-Node \`fetch\` ${ms(fetchWall.median)}`, `${ratio(wall.median, refWall.median)} / ${ratio(wall.median, fetchWall.median)}`, '—', '—']);
    if (s.rss.length) {
      const rss = summarize(s.rss);
      const refRss = summarize(s.refRss);
      const fetchRss = summarize(s.fetchRss);
      push(['c', 'same session, peak RSS (GNU time `%M`)', protocol, mib(rss.median), mib(rss.p90), `\`node -e ""\` ${mib(refRss.median)}; bare-Node \`fetch\` ${mib(fetchRss.median)}`, `${ratio(rss.median, refRss.median)} / ${ratio(rss.median, fetchRss.median)}`, '≤ 120 MiB', status(rss.median, rss.p90, TARGETS.rssKiB)], `c. peak RSS (${protocol}): median ${mib(rss.median)} > 120 MiB`);
    }
    const disposeRss = summarize(s.rssDispose);
    push(['c', 'same session, `maxRSS` read in the plugin\'s `dispose()`', protocol, mib(disposeRss.median), mib(disposeRss.p90), '—', '—', s.rss.length ? '(cross-check)' : '≤ 120 MiB', s.rss.length ? '—' : status(disposeRss.median, disposeRss.p90, TARGETS.rssKiB)], s.rss.length ? undefined : `c. peak RSS (${protocol}): median ${mib(disposeRss.median)} > 120 MiB`);
    const gapSamples = s.gapMethod === 'finish' ? s.gap : s.gapReceivedAt;
    const gap = summarize(gapSamples);
    const tool = summarize(s.toolMs);
    const gapLabel = s.gapMethod === 'finish' ? 'gap between turns: response 1 last byte written → request 2 received' : 'gap between turns (approx.: receivedAt(2) − receivedAt(1))';
    push(['d', gapLabel, protocol, ms(gap.median, 2), ms(gap.p90, 2), `tool \`duration_ms\` ${ms(tool.median, 0)}`, '—', `≤ ${TARGETS.gapMs} ms`, status(gap.median, gap.p90, TARGETS.gapMs)], `d. turn gap (${protocol}): median ${ms(gap.median, 2)} > ${TARGETS.gapMs} ms`);
    // In-process (bench plugin): what MewCode itself spends between turns, the tool excluded.
    const kernelGap = summarize(s.kernelGap);
    push(['d', 'kernel between turns: assistant turn recorded → next request handed to the provider (tool excluded)', protocol, ms(kernelGap.median, 2), ms(kernelGap.p90, 2), '—', '—', `≤ ${TARGETS.gapMs} ms`, status(kernelGap.median, kernelGap.p90, TARGETS.gapMs)], `d. kernel turn gap (${protocol}): median ${ms(kernelGap.median, 2)} > ${TARGETS.gapMs} ms`);
    const sdkGap = summarize(s.sdkGap);
    const clientGap = summarize(s.clientGap);
    push(['d', 'client between turns: last byte of response 1 read → HTTP request 2 created (tool excluded)', protocol, ms(clientGap.median, 2), ms(clientGap.p90, 2), '—', '—', `≤ ${TARGETS.gapMs} ms`, status(clientGap.median, clientGap.p90, TARGETS.gapMs)], `d. client turn gap (${protocol}): median ${ms(clientGap.median, 2)} > ${TARGETS.gapMs} ms`);
    push(['d', '… plus request conversion and the SDK: assistant turn recorded → HTTP request created (tool excluded)', protocol, ms(sdkGap.median, 2), ms(sdkGap.p90, 2), '—', '—', `≤ ${TARGETS.gapMs} ms`, status(sdkGap.median, sdkGap.p90, TARGETS.gapMs)], `d. kernel + SDK turn gap (${protocol}): median ${ms(sdkGap.median, 2)} > ${TARGETS.gapMs} ms`);
    const b1 = summarize(s.bytes1);
    const b2 = summarize(s.bytes2);
    push(['e', 'request body, turn 1 → turn 2', protocol, `${bytes(b1.median)} → ${bytes(b2.median)}`, '—', '—', '—', 'system + tools byte-identical', s.identical ? 'identical: yes' : '**identical: no**'], `e. system/tools not byte-identical between turns (${protocol})`);
  }
  for (const [protocol, s] of Object.entries(results.pacedSession ?? {})) {
    const pace = `headers after ${results.pacing.delayMs} ms, an event every ${results.pacing.chunkDelayMs} ms`;
    const gap = summarize(s.gap);
    const instant = summarize(results.session[protocol]?.gap ?? []);
    const tool = summarize(s.toolMs);
    push(["d′", `gap between turns, the model paced (${pace}): response 1 last byte written → request 2 received`, protocol, ms(gap.median, 2), ms(gap.p90, 2), `tool \`duration_ms\` ${ms(tool.median, 0)}; unpaced (d) ${ms(instant.median, 2)}`, '—', `≤ ${TARGETS.gapMs} ms`, status(gap.median, gap.p90, TARGETS.gapMs)], `d′. paced turn gap (${protocol}): median ${ms(gap.median, 2)} > ${TARGETS.gapMs} ms`);
    if (s.rss.length) {
      const rss = summarize(s.rss);
      const unpaced = summarize(results.session[protocol]?.rss ?? []);
      push(["d′", 'same session, peak RSS (GNU time `%M`; the idle warm-up runs only here)', protocol, mib(rss.median), mib(rss.p90), `unpaced (c) ${mib(unpaced.median)}`, '—', '≤ 120 MiB', status(rss.median, rss.p90, TARGETS.rssKiB)], `d′. peak RSS (${protocol}): median ${mib(rss.median)} > 120 MiB`);
    }
    const clientGap = summarize(s.clientGap);
    push(["d′", 'same, client between turns: last byte of response 1 read → HTTP request 2 created (tool excluded)', protocol, ms(clientGap.median, 2), ms(clientGap.p90, 2), '—', '—', `≤ ${TARGETS.gapMs} ms`, status(clientGap.median, clientGap.p90, TARGETS.gapMs)], `d′. paced client turn gap (${protocol}): median ${ms(clientGap.median, 2)} > ${TARGETS.gapMs} ms`);
  }
  for (const [protocol, s] of Object.entries(results.bashFirst ?? {})) {
    const gap = summarize(s.gap);
    const tool = summarize(s.toolMs);
    const net = summarize(s.gap.map((g, i) => g - (s.toolMs[i] ?? 0)));
    push(["d″", 'same as d′, the first call a real `bash` (sandboxed): gap between turns, the tool included', protocol, ms(gap.median, 2), ms(gap.p90, 2), `tool \`duration_ms\` ${ms(tool.median, 0)}`, '—', '—', '—']);
    push(["d″", '… minus the tool\'s own `duration_ms` (whole ms)', protocol, ms(net.median, 2), ms(net.p90, 2), '—', '—', `≤ ${TARGETS.gapMs} ms`, status(net.median, net.p90, TARGETS.gapMs)], `d″. bash-first turn gap without the tool (${protocol}): median ${ms(net.median, 2)} > ${TARGETS.gapMs} ms`);
  }
  for (const [protocol, f] of Object.entries(results.longSession ?? {})) {
    const steady = summarize(f.gaps);
    const first = summarize(f.firstGaps);
    const early = summarize(f.earlyGaps);
    const late = summarize(f.lateGaps);
    push(['f', `${f.requests}-request session: gap between turns, every turn after the first of each prompt`, protocol, ms(steady.median, 2), ms(steady.p90, 2), `first gap of the session ${ms(first.median, 2)}`, '—', `≤ ${TARGETS.gapMs} ms`, status(steady.median, steady.p90, TARGETS.gapMs)], `f. long-session turn gap (${protocol}): median ${ms(steady.median, 2)} > ${TARGETS.gapMs} ms`);
    push(['f', 'same session: gap of the 10 turns after the first → of the last 10 turns', protocol, `${ms(early.median, 2)} → ${ms(late.median, 2)}`, '—', '—', '—', '—', '—']);
    const rss = summarize(f.rss.length ? f.rss : f.rssDispose);
    push(['f', `same session, peak RSS (${f.rss.length ? 'GNU time `%M`' : 'the plugin\'s dispose()'})`, protocol, mib(rss.median), mib(rss.p90), '—', '—', '≤ 120 MiB', status(rss.median, rss.p90, TARGETS.rssKiB)], `f. long-session peak RSS (${protocol}): median ${mib(rss.median)} > 120 MiB`);
    const lastBytes = summarize(f.lastBytes);
    push(['f', 'same session, request body of the last turn', protocol, bytes(lastBytes.median), '—', '—', '—', '—', '—']);
  }
  // Group by measurement (a, b, c, …) with the protocols side by side; sort is stable.
  rows.sort((x, y) => x[0].localeCompare(y[0]));
  return { rows, unmet };
}

export function markdownTable(rows) {
  const header = ['#', 'Measurement', 'Protocol', 'Median', 'p90', 'Reference (median, same run)', 'Ratio', 'Target', 'Status'];
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export function machineLine(results) {
  const cpus = os.cpus();
  const model = (cpus[0]?.model ?? 'unknown CPU').trim();
  return `${results.date}, ${os.type()} ${os.release()} (${os.arch()}), ${model} × ${cpus.length} cores, Node ${process.version}`;
}

function nodeVarsNote(results) {
  if (!results.strippedNodeVars.length) return [];
  const names = results.strippedNodeVars.map((n) => `\`${n}\``).join(' and ');
  const withVars = summarize(results.version.refWithNodeVars);
  const without = summarize(results.version.ref);
  return [
    `The invoking environment set ${names}; every child ran without ${results.strippedNodeVars.length > 1 ? 'them' : 'it'} (they change how any Node process starts, not MewCode; \`--keep-node-env\` keeps them). With ${results.strippedNodeVars.length > 1 ? 'them' : 'it'}, \`node -e ""\` took ${ms(withVars.median)} (p90 ${ms(withVars.p90)}) instead of ${ms(without.median)}, and every Node start-up above would grow by about the difference.`,
    '',
  ];
}

export function section(results) {
  const { rows, unmet } = buildRows(results);
  const n = results.runs;
  const anySession = Object.values(results.session)[0];
  const gapNote =
    anySession?.gapMethod === 'receivedAt'
      ? 'The response-end stamp was unavailable, so the gap is approximated as receivedAt(request 2) − receivedAt(request 1): it also contains writing response 1, which is immediate with no scripted delays.'
      : "The scripted server logs only `receivedAt`, so the bench (which runs the server in-process) wraps `http.createServer` to stamp each response's `finish` event (last byte handed to the socket) and each request body's `end`; the gap is the latter for request 2 minus the former for response 1. It contains the CLI's reading of the end of the stream, the permission check and scheduling of the tool, the tool itself (shown beside it; it returns a constant), building and sending request 2.";
  return [
    '## Kernel: start-up, turn overhead, memory',
    '',
    'Reproduce: `npm run bench` (prints this section; `npm run bench -- --write` rewrites it here).',
    '',
    `Measured ${machineLine(results)}. Numbers are **medians** with the p90 beside them, over ${n.version} runs for (a), ${n.firstRequest} for (b) and ${n.session} for (c–e, d′, d″) and ${n.longSession ?? 0} sessions for (f) per protocol, after ${n.warmup} discarded warm-up run${n.warmup === 1 ? '' : 's'} of each command of a–e; references run interleaved with the measured command in the same invocation, and ratios are median ÷ reference median. Status compares the median with the target; "met (p90 over)" means the slowest tenth of runs misses it.`,
    '',
    markdownTable(rows),
    '',
    unmet.length ? `**Targets not met:** ${unmet.join('; ')}.` : '**All targets met** on this run.',
    '',
    ...nodeVarsNote(results),
    'How each number is taken (the scripted model server runs inside the bench process; every child gets a fresh temporary `HOME` and project directory and no provider variables except the ones set here):',
    '',
    '- **a.** `node bin/mewcode.js --version` and `node -e ""`, alternating, each timed from `spawn()` to the child\'s exit.',
    '- **b.** `node bin/mewcode.js -p hi --output-format json` against the scripted server (one text turn), in a project as a session starts in: a git repository with ' + PROJECT_FILES + ' committed source files, one of them changed and one untracked (scripts/bench/harness.mjs `makeGitProject`), no MewCode configuration. From `Date.now()` just before `spawn()` to the server\'s `receivedAt` of the first request (set when its body has been read). References, interleaved: `node -e ""` spawn → exit, and a bare Node process POSTing to the same server, spawn → `receivedAt`, once with `node:http` (the floor for MewCode, whose SDKs send through `node:http`, sdk/http/node-fetch.ts) and once with the global `fetch` (what the SDKs use by default: it initialises undici). The configured row is the same run, interleaved, with no provider variable but the API key: the provider comes from `~/.mewcode/config.yaml` and ' + "permission rules from `~/.mewcode/settings.yaml` (`" + USER_SETTINGS.trim().replace(/\n\s*/g, ' ') + "`, scripts/user-config-fixture.mjs), as a user's run reads them: the configuration path (YAML, discovery, schema checks, rule parsing) is in it.",
    '- **i.** `node bin/mewcode.js` with no arguments in a 100×30 pseudo-terminal (util-linux `script -qfec`, `TERM=xterm-256color`), in a project like b\'s, from `spawn()` to the first output that holds the input box\'s placeholder ("type a prompt"); the UI is then killed. The reference, interleaved, is `node -e ""` under the same `script`, spawn → exit: the pty and `script`\'s own start are in both, so the ratio understates MewCode\'s share. Skipped where `script` is missing.',
    '- **c.** `-p … --output-format stream-json --permission-mode bypassPermissions` in a project whose `.mewcode.yaml` loads `bench-tool.mjs` (scripts/bench/bench-tool.mjs), a git repository like b\'s; the model answers text + a `bench_echo` call, then text. Wall time is spawn → exit; peak RSS is GNU `time -f %M` of the child (when `/usr/bin/time` is GNU time), cross-checked by `process.resourceUsage().maxRSS` written from the plugin\'s `dispose()` at shutdown. Both references (`node -e ""`, and a bare `node -e "fetch(…)"` that POSTs once to the same server and reads the answer) run under the same `time`.',
    `- **d.** ${gapNote} Date/performance clock resolution is well under 1 ms. The two in-process rows come from the bench plugin (scripts/bench/bench-tool.mjs): it stamps the \`messageAppended\` of the assistant turn that asked for the tool (the stream is finished and recorded), the last \`preModelRequest\` tap of the next iteration (the request is handed to the provider), and, through Node's HTTP diagnostics channels, the creation of the next HTTP request and the \`end\` of the first response (the client read its last byte); the tool's own time is subtracted. The wire-level row additionally contains the SDK reading the end of the stream and Node writing the request.`,
    `- **d′.** The same two-turn session as d, with the scripted server pacing its answers like a model, only faster than any hosted one (response headers after ${results.pacing?.delayMs} ms, SSE events ${results.pacing?.chunkDelayMs} ms apart; hosted models take 0.3–2 s to a first token). Unpaced, the whole response arrives at once, right after the request, so the CLI works through all of its events after the last byte, which a streamed answer spreads over its generation, and little can use the wait for the first answer (the hooks compile there in short steps from the moment the request goes out, and the rest of the CLI's idle warm-up \`IDLE_WARM_DELAY_MS\` after it, unless the answer has begun: docs/kernel.md, "Idle warm-up"). d is the worst case; d′ is what a session with a real model does. Stamped as in d; no references are run.`,
    '- **d″.** As d′, but the model\'s first call is `bash` running `echo ping` (sandboxed with bubblewrap where it is installed, the default). The first command check of a process loads the shell parser\'s WebAssembly, and the tool spawns the sandbox: the row shows the gap with the tool, and without it (the tool result\'s `duration_ms`, whole milliseconds).',
    '- **f.** scripts/bench/long-session-driver.mjs, a child process running the built package (`Kernel`, `defaultPlugins` and the bench plugin, as a custom build would) with one session and three prompts in a row; each prompt takes 20 model requests (19 `bench_echo` calls, then an answer), so the session makes 60 and its history grows throughout. The gap is stamped as in d, for every pair of consecutive requests within a prompt; the first gap of the session (which pays first-use costs: code paths compiled, Node internals loaded) is shown beside the rest. Peak RSS as in c; the last request\'s body size in bytes.',
    '- **e.** UTF-8 byte length of each request\'s raw body; "identical" compares the serialized `system` blocks (Anthropic) or leading system messages (OpenAI) and the `tools` array of requests 1 and 2 in every run. ' +
      (results.compactJson ? 'Both SDKs sent compact `JSON.stringify` output (checked), so equal re-serializations are equal bytes on the wire.' : 'Note: a raw body was not compact `JSON.stringify` output in some run, so the comparison is of re-serialized JSON, not raw bytes.'),
  ].join('\n');
}

const INTRO = `# Benchmarks

Performance budgets of MewCode and how close this build is to them. Every section is produced by a
script in this repository against the scripted model server (no network, no API key), and every
number is compared with a reference command run in the same invocation, because absolute times
depend on the machine. Sections between \`<!-- bench:…:start -->\` / \`<!-- bench:…:end -->\` markers
are rewritten by their script; edit the text outside them.
`;

export function writeSection(file, text, name = 'kernel') {
  const START = `<!-- bench:${name}:start -->`;
  const END = `<!-- bench:${name}:end -->`;
  const block = `${START}\n${text}\n${END}`;
  if (!existsSync(file)) {
    writeFileSync(file, `${INTRO}\n${block}\n`);
    return 'created';
  }
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  if (start >= 0 && end > start) {
    writeFileSync(file, current.slice(0, start) + block + current.slice(end + END.length));
    return 'updated';
  }
  writeFileSync(file, `${current.replace(/\s*$/, '\n')}\n${block}\n`);
  return 'appended';
}
