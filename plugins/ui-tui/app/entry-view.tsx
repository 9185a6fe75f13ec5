/** One finished entry of the conversation, as written (once) to the scrollback. */
import { Box, Text } from 'ink';
import type { Entry } from '../model/entries.js';
import { renderMarkdown } from './markdown.js';
import { FinishedToolView } from './tool-view.js';

export function EntryView({ entry, width }: { entry: Entry; width: number }) {
  switch (entry.kind) {
    case 'banner':
      return (
        <Box borderStyle="round" borderColor="magenta" paddingX={1}>
          <Text>{entry.text}</Text>
        </Box>
      );
    case 'user':
      return (
        <Box marginTop={1}>
          <Text color="cyan">{'> '}</Text>
          <Text>{entry.text}</Text>
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
          <Text dimColor italic>{`✻ ${entry.text.trim()}`}</Text>
        </Box>
      );
    case 'tool':
      return <FinishedToolView call={entry.call} result={entry.result} durationMs={entry.durationMs} />;
    case 'notice':
      return (
        <Box marginTop={entry.level === 'error' ? 1 : 0}>
          <Text {...(entry.level === 'error' ? { color: 'red' } : entry.level === 'warning' ? { color: 'yellow' } : { dimColor: true })}>
            {`${entry.level === 'error' ? '✗ ' : entry.level === 'warning' ? '! ' : '· '}${entry.text}`}
          </Text>
        </Box>
      );
    case 'command':
      return (
        <Box flexDirection="column" marginTop={1}>
          <Text color="cyan">{`> ${entry.text}`}</Text>
          {entry.output ? <Text {...(entry.isError ? { color: 'red' } : {})}>{entry.output}</Text> : null}
        </Box>
      );
  }
}
