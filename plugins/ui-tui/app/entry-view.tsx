/** One finished entry of the conversation, as written (once) to the scrollback. */
import { terminalSafe } from './terminal-safe.js';
import { Box, Text } from 'ink';
import type { Entry } from '../model/entries.js';
import { renderMarkdown } from './markdown.js';
import { FinishedToolView } from './tool-view.js';

/** Lines of finished thinking kept when it is collapsed. */
const THINKING_COLLAPSED_LINES = 2;

/** Thinking as the scrollback keeps it: in full, or its first lines (Ctrl+T switches for what follows). */
export function thinkingText(text: string, expanded: boolean): string {
  const lines = terminalSafe(text).trim().split('\n');
  if (expanded || lines.length <= THINKING_COLLAPSED_LINES) return `✻ ${lines.join('\n')}`;
  return `✻ ${lines.slice(0, THINKING_COLLAPSED_LINES).join('\n')}\n  … ${lines.length - THINKING_COLLAPSED_LINES} more line${lines.length - THINKING_COLLAPSED_LINES === 1 ? '' : 's'} of thinking (Ctrl+T shows thinking in full)`;
}

export function EntryView({ entry, width, thinkingExpanded = false }: { entry: Entry; width: number; thinkingExpanded?: boolean }) {
  switch (entry.kind) {
    case 'banner':
      return (
        <Box borderStyle="round" borderColor="magenta" paddingX={1}>
          <Text>{terminalSafe(entry.text)}</Text>
        </Box>
      );
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan">{'> '}</Text>
          <Text>{terminalSafe(entry.text)}</Text>
        </Box>
      );
    case 'assistant':
      return (
        <Box marginTop={1}>
          <Text>{renderMarkdown(entry.text, width)}</Text>
        </Box>
      );
    case 'thinking':
      return (
        <Box marginTop={1}>
          <Text dimColor italic>
            {thinkingText(entry.text, thinkingExpanded)}
          </Text>
        </Box>
      );
    case 'tool':
      return <FinishedToolView call={entry.call} result={entry.result} durationMs={entry.durationMs} />;
    case 'notice':
      return (
        <Box marginTop={entry.level === 'error' ? 1 : 0}>
          <Text {...(entry.level === 'error' ? { color: 'red' } : entry.level === 'warning' ? { color: 'yellow' } : { dimColor: true })}>
            {`${entry.level === 'error' ? '✗ ' : entry.level === 'warning' ? '! ' : '· '}${terminalSafe(entry.text)}`}
          </Text>
        </Box>
      );
    case 'command':
      return (
        <Box flexDirection="column" marginTop={1}>
          <Text color="cyan">{`> ${terminalSafe(entry.text)}`}</Text>
          {entry.output ? <Text {...(entry.isError ? { color: 'red' } : {})}>{terminalSafe(entry.output)}</Text> : null}
        </Box>
      );
  }
}
