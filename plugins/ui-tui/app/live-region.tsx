/**
 * The part of the screen that is redrawn: thinking and text still streaming, running tools,
 * progress lines. Its height is bounded (Ink clears the whole terminal, scrollback included,
 * once the redrawn part is as tall as the screen), so everything here is cut to `maxLines`.
 */
import { terminalSafe } from './terminal-safe.js';
import { Box, Text } from 'ink';
import type { UiState } from '../model/ui-store.js';
import { lastLines, renderMarkdown } from './markdown.js';
import { RunningToolView, TAIL_LINES } from './tool-view.js';

export function LiveRegion({ state, now, width, maxLines }: { state: UiState; now: number; width: number; maxLines: number }) {
  // Each running tool takes its line and its tail; the streamed text gets what is left. Many
  // calls at once: tails are dropped first, then calls beyond the budget are counted, not drawn.
  const toolBudget = Math.max(1, Math.floor(maxLines / 2));
  const tools = state.running.slice(0, state.running.length > toolBudget ? toolBudget - 1 : toolBudget);
  const hidden = state.running.length - tools.length;
  const linesWithTails = tools.reduce((n, t) => n + 1 + (t.tail ? Math.min(TAIL_LINES, t.tail.split('\n').length) : 0), 0);
  const withTails = linesWithTails <= toolBudget;
  const toolLines = withTails ? linesWithTails : tools.length;
  const textLines = Math.max(3, maxLines - toolLines - (hidden > 0 ? 1 : 0) - state.progress.length - 2);
  const thinking = terminalSafe(state.streamingThinking).trim();
  return (
    <Box flexDirection="column">
      {thinking ? (
        <Box marginTop={1}>
          <Text dimColor italic>
            {state.thinkingExpanded ? lastLines(`✻ ${thinking}`, textLines) : `✻ Thinking… ${lastLines(thinking, 1).slice(-Math.max(10, width - 16))}`}
          </Text>
        </Box>
      ) : null}
      {state.streamingText ? (
        <Box marginTop={1}>
          <Text>{lastLines(renderMarkdown(state.streamingText, width), textLines)}</Text>
        </Box>
      ) : null}
      {tools.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          {tools.map((t) => (
            <RunningToolView key={t.call.id} tool={withTails ? t : { ...t, tail: undefined }} now={now} />
          ))}
          {hidden > 0 ? <Text dimColor>{`… and ${hidden} more running`}</Text> : null}
        </Box>
      ) : null}
      {state.progress.map((p) => (
        <Text key={p.id} color="yellow">
          {p.until !== undefined ? terminalSafe(p.text).replace('{countdown}', `${Math.max(0, Math.ceil((p.until - now) / 1000))} s`) : `${terminalSafe(p.text)} ${Math.floor((now - p.startedAt) / 1000)}s`}
        </Text>
      ))}
    </Box>
  );
}
