/**
 * Layer 2's run, loaded at the first compaction rather than at start-up (service.ts
 * decides when, and counts failures): the older messages become a nine-section summary, the
 * recent tail stays as it was, a recovery attachment follows the summary, and a report says what
 * was dropped. After a request that was too long, the tail's largest texts are moved out too.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { CompactionContext } from '../../types/hooks.js';
import type { KernelApi } from '../../types/plugin.js';
import type { Message } from '../../types/messages.js';
import type { CompactionOutcome, CompactionReport, CompactionRequest, DroppedRange } from '../../types/session.js';
import { estimateTokensWith, tokensOfChars } from '../../types/token-estimate.js';
import type { LayerOne } from './layer-one.js';
import { readFileTarget } from './read-calls.js';
import { recoveryAttachment, type GatedRead } from './recovery.js';
import { providerAsk, summarise, SummaryTooLongError, type AskModel } from './summariser.js';
import { shrinkOversized } from './oversized.js';
import { isSummaryHead, SUMMARY_INTRO } from './tail.js';
import { RECOVERY_FILES, summaryThreshold } from './thresholds.js';
import { groupDigits } from '../../sdk/plain-intl.js';

export interface SummaryCompactionDeps {
  projectRoot: string;
  layer: LayerOne;
  /** Absolute paths of the files read most recently, newest first. */
  recentFiles(limit: number): string[];
  /**
   * A recovered file's read as the session's read_file call through the kernel's gate
   * (kernel.callTool: preToolUse, the permission chain with nobody asked, postToolUse), `perform`
   * reading it in the tool's place. Without it no file is recovered.
   */
  readThroughGate?(file: string, perform: Parameters<GatedRead>[1], session: CompactionContext, signal: AbortSignal): ReturnType<GatedRead>;
  warn(message: string): void;
  /** Sends a model request through preModelRequest (the kernel's sendModelRequest). */
  send: KernelApi['sendModelRequest'];
  /** The summary request; default: sent with `send` to the session's provider. */
  ask?(request: CompactionRequest, signal: AbortSignal): AskModel;
}

/** Dropped messages listed one by one in a report (the newest; the rest are counted): the session file's record stays bounded. */
export const REPORT_MAX_MESSAGES = 200;

/** Recently read files, without those the kept tail already shows (their results are there in full). */
function notInTail(tail: readonly Message[], deps: SummaryCompactionDeps): string[] {
  const shown = filesReadIn(tail, deps.projectRoot);
  return deps.recentFiles(RECOVERY_FILES * 4).filter((file) => !shown.has(file));
}

/**
 * How the recovery attachment reads a file: as the session's own read_file call would be judged.
 * A session that does not offer read_file now gets no file content back (its model could not read one).
 */
function gatedRead(request: CompactionRequest, signal: AbortSignal, deps: SummaryCompactionDeps): GatedRead | undefined {
  const gate = deps.readThroughGate;
  if (!gate || !request.tools.includes('read_file')) return undefined;
  return (file, perform) => gate(file, perform, request.session, signal);
}

/** The history with its messages before `start` summarised (undefined: nothing older to summarise; service.ts finds it). */
export async function summariseHistory(messages: readonly Message[], request: CompactionRequest, deps: SummaryCompactionDeps, start: number | undefined): Promise<CompactionOutcome | undefined> {
  const charsOf = (message: Message): number => deps.layer.sentChars(message);
  // Nothing to summarise: after a request that was too long, the tail's largest texts are moved out instead.
  if (start === undefined) {
    return request.reason === 'emergency' ? shrinkOnly(messages, request, charsOf, 'nothing older was left to summarise', deps) : undefined;
  }
  const signal = request.signal ?? new AbortController().signal;
  const ask = deps.ask ? deps.ask(request, signal) : providerAsk((summary, cancel) => deps.send(summary, { reason: 'compaction', signal: cancel, session: request.session, provider: request.session.provider }), request.focus, signal);
  // The summary reads what the model saw: results layer 1 moved out appear as their previews.
  const older = messages.slice(0, start).map((message) => deps.layer.sentVersion(message));
  let summary: Awaited<ReturnType<typeof summarise>>;
  try {
    summary = await summarise(older, ask);
  } catch (error) {
    // One turn too large to summarise (an enormous paste): after a failed request the session would otherwise stay stuck.
    const shrunk = request.reason === 'emergency' && error instanceof SummaryTooLongError ? shrinkOnly(messages, request, charsOf, 'the summary request was too long even with only the latest turn', deps) : undefined;
    if (shrunk) return shrunk;
    throw error;
  }
  const leftOutNote = summary.leftOut > 0 ? ` (the oldest ${plural(summary.leftOut, 'message')} did not fit the summary request and are not in it)` : '';
  const head: Message = {
    role: 'user',
    content: [
      { type: 'text', text: `${SUMMARY_INTRO} The summary below replaces its first ${plural(start, 'message')}${leftOutNote}; the messages after it are the most recent ones, as they were.\n\n<summary>\n${summary.text}\n</summary>` },
      { type: 'text', text: await recoveryAttachment({ projectRoot: deps.projectRoot, recentFiles: notInTail(messages.slice(start), deps), tools: request.tools, contextWindow: request.session.provider.contextWindow, read: gatedRead(request, signal, deps) }) },
    ],
  };
  let next = [head, ...messages.slice(start)];
  const shrunk = request.reason === 'emergency' ? shrink(next, 1, request, deps) : undefined;
  if (shrunk) next = shrunk.messages;
  const report = buildReport(request.reason, messages, start, summary.leftOut, summary.text, next, charsOf);
  // The summary and the recovery attachment turned out as large as what they replace: the
  // history stays as it was (a longer one would only fill the window sooner, and after a request
  // that was too long, the retry would only fail larger).
  if (request.reason !== 'manual' && report.tokensAfter >= report.tokensBefore) {
    deps.warn(`compaction: the summary was not used: it would have taken the history from ~${n(report.tokensBefore)} to ~${n(report.tokensAfter)} tokens. The history is kept as it is.`);
    return undefined;
  }
  return { messages: next, report: shrunk ? { ...report, notice: `${report.notice}${shrunkNote(shrunk.shrunk)}` } : report };
}

/** The tail's largest texts saved to files until the history is under the threshold (see oversized.ts). */
function shrink(messages: readonly Message[], from: number, request: CompactionRequest, deps: SummaryCompactionDeps): { messages: Message[]; shrunk: number } | undefined {
  const window = request.session.provider.contextWindow;
  const budget = Math.max(summaryThreshold(window), Math.floor(window / 2));
  return shrinkOversized(messages, from, budget, { projectRoot: deps.projectRoot, sessionId: request.session.sessionId, charsOf: (message) => deps.layer.sentChars(message), sentVersion: (message) => deps.layer.sentVersion(message) });
}

function shrinkOnly(messages: readonly Message[], request: CompactionRequest, charsOf: (message: Message) => number, why: string, deps: SummaryCompactionDeps): CompactionOutcome | undefined {
  const from = messages.length > 0 && isSummaryHead(messages[0] as Message) ? 1 : 0;
  const shrunk = shrink(messages, from, request, deps);
  if (!shrunk) return undefined;
  const report = buildReport(request.reason, messages, 0, 0, '', shrunk.messages, charsOf);
  const notice = `Compacted the conversation (emergency): ${why};${shrunkNote(shrunk.shrunk)} About ${n(report.tokensBefore)} → ${n(report.tokensAfter)} tokens.`;
  return { messages: shrunk.messages, report: { ...report, notice } };
}

/** Paths read_file read in these messages (resolved in the project, links followed as the tool's tracker records them). */
function filesReadIn(messages: readonly Message[], projectRoot: string): Set<string> {
  const files = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls) {
      const target = readFileTarget(call);
      if (target === undefined) continue;
      const absolute = path.resolve(projectRoot, target);
      files.add(absolute);
      files.add(realpathOr(absolute));
    }
  }
  return files;
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function buildReport(reason: CompactionReport['reason'], messages: readonly Message[], start: number, leftOut: number, summaryText: string, next: readonly Message[], charsOf: (message: Message) => number): CompactionReport {
  const range = (from: number, to: number): DroppedRange => {
    const list = messages.slice(from, to).map((message, offset) => {
      const ids = message.role === 'assistant' ? message.toolCalls.map((call) => call.id) : message.role === 'tool' ? message.results.map((result) => result.toolCallId) : [];
      return { index: from + offset, role: message.role, tokens: tokensOfChars(charsOf(message)), ...(ids.length > 0 ? { toolCallIds: ids } : {}) };
    });
    const omitted = Math.max(0, list.length - REPORT_MAX_MESSAGES);
    return { count: list.length, tokens: list.reduce((sum, item) => sum + item.tokens, 0), messages: list.slice(omitted), ...(omitted > 0 ? { omitted } : {}) };
  };
  const summarised = range(leftOut, start);
  const unsummarised = range(0, leftOut);
  const kept = messages.slice(start);
  const keptTokens = kept.reduce((sum, message) => sum + tokensOfChars(charsOf(message)), 0);
  const tokensBefore = estimateTokensWith(messages, undefined, charsOf);
  const tokensAfter = estimateTokensWith(next, undefined, charsOf);
  const summaryTokens = tokensOfChars(summaryText.length);
  const notice = [
    `Compacted the conversation (${reason}): ${plural(summarised.count, 'older message')} (~${n(summarised.tokens)} tokens) replaced by a summary (~${n(summaryTokens)} tokens);`,
    unsummarised.count > 0 ? ` ${plural(unsummarised.count, 'oldest message')} (~${n(unsummarised.tokens)} tokens) did not fit the summary request and were dropped without being summarised;` : '',
    ` the last ${plural(kept.length, 'message')} (~${n(keptTokens)} tokens) kept as they were. About ${n(tokensBefore)} → ${n(tokensAfter)} tokens; the session file records what was dropped.`,
  ].join('');
  return { reason, summarised, unsummarised, kept: { count: kept.length, tokens: keptTokens }, summaryTokens, tokensBefore, tokensAfter, notice };
}

function shrunkNote(count: number): string {
  return ` ${plural(count, 'oversized message')} of the recent history ${count === 1 ? 'was' : 'were'} saved to files under the session's tool-results directory and replaced by previews (the model reads them with read_file).`;
}

function n(value: number): string {
  return groupDigits(value);
}

function plural(count: number, word: string): string {
  return `${n(count)} ${word}${count === 1 ? '' : 's'}`;
}
