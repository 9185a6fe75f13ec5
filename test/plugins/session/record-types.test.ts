// Every record type the transcript writer writes is one the reader knows: a record the reader
// does not know is counted as a damaged line, and `--continue` warns about it on every load.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transcriptFile } from '../../../plugins/session/layout.js';
import { parseTranscript } from '../../../plugins/session/session-store.js';
import { TranscriptWriter } from '../../../plugins/session/transcript-writer.js';
import type { Message } from '../../../types/messages.js';

const ID = '20261201-120000-abcd';
const origin = { sessionId: ID, agentId: 'main' };
const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

let root: string;
let home: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-records-')));
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-records-home-')));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

/** The record types written in transcript-writer.ts, read from its source so a new one cannot be missed here. */
function typesInWriterSource(): string[] {
  const source = readFileSync(path.join(process.cwd(), 'plugins/session/transcript-writer.ts'), 'utf8');
  return [...new Set([...source.matchAll(/\btype: '([a-z_]+)'/g)].map((m) => m[1]!))].sort();
}

test('a transcript with a record of every type the writer writes loads with no damaged line', () => {
  const writer = new TranscriptWriter(root, home);
  const call = { id: 'c1', name: 'read_file', input: '{}' };
  expect(writer.append({ ...origin, message: user('one'), model: 'm1' })).toBeUndefined();
  expect(writer.recordSwitch(origin, { provider: 'a', model: 'm1' }, { provider: 'b', model: 'm2' })).toBeUndefined();
  expect(writer.append({ ...origin, message: { role: 'assistant', content: [], toolCalls: [call] } })).toBeUndefined();
  expect(writer.appendResult(origin, { toolCallId: 'c1', content: 'r', isError: false })).toBeUndefined();
  expect(writer.append({ ...origin, message: { role: 'tool', results: [{ toolCallId: 'c1', content: 'r', isError: false }] } })).toBeUndefined();
  expect(writer.appendCompaction(origin, [user('summary')])).toBeUndefined();
  expect(writer.recordSwitch(origin, { provider: 'b', model: 'm2' }, { provider: 'a', model: 'm1' })).toBeUndefined();
  expect(writer.append({ ...origin, message: user('two') })).toBeUndefined();
  writer.close();
  const text = readFileSync(transcriptFile(root, ID, 'main'), 'utf8');
  const written = [...new Set(text.trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type))].sort();
  expect(written).toEqual(typesInWriterSource());
  expect(parseTranscript(text)).toEqual({ messages: [user('summary'), user('two')], skipped: 0, droppedResults: 0, cutLastLine: false });
});
