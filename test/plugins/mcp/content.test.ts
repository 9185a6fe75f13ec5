/** MCP tool results as the model sees them (M7): nothing dropped silently, limits at their boundary. */
import { afterEach, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { capText, MAX_IMAGE_BASE64_CHARS, MAX_IMAGES, renderResult, toToolOutput } from '../../../plugins/mcp/content.js';
import { removeTempDirs, tempDir } from './helpers.js';

afterEach(removeTempDirs);

const png = 'iVBORw0KGgoAAAANSUhEUg=='; // the PNG signature and the start of IHDR
const gif = Buffer.from('GIF89a\x01\x00', 'latin1').toString('base64');

test('text joined, images kept as images, resources and links with their URI, audio described, structured content as JSON when there is no text', () => {
  const rendered = renderResult({
    content: [
      { type: 'text', text: 'first' },
      { type: 'image', data: png, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'demo://doc/1', mimeType: 'text/markdown', text: '# Doc' } },
      { type: 'resource', resource: { uri: 'demo://blob/1', mimeType: 'application/octet-stream', blob: 'AAAA' } },
      { type: 'resource', resource: { uri: 'demo://img/1', mimeType: 'image/gif', blob: gif } },
      { type: 'image', data: png, mimeType: 'image/jpeg' }, // mislabelled: typed by its bytes
      { type: 'image', data: 'AAAAAAAA', mimeType: 'image/png' }, // not an image at all
      { type: 'resource_link', uri: 'file:///x.txt', name: 'x.txt', mimeType: 'text/plain', description: 'a file' },
      { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      { type: 'hologram' },
      { type: 'text', text: 'last' },
    ],
  });
  expect(rendered.text.split('\n')).toEqual([
    'first',
    'Resource <demo://doc/1> (text/markdown):',
    '# Doc',
    '[resource <demo://blob/1>: application/octet-stream, 3 bytes, binary content not shown]',
    '[image: image/png, 6 bytes, not shown: its bytes are not PNG, JPEG, GIF or WebP]',
    'Resource link: x.txt <file:///x.txt> (text/plain, a file)',
    '[audio: audio/wav, 3 bytes, not shown: audio is not passed to the model]',
    '[content of type "hologram" not shown: this client does not know it]',
    'last',
  ]);
  expect(rendered.images).toEqual([
    { type: 'image', mediaType: 'image/png', data: png },
    { type: 'image', mediaType: 'image/gif', data: gif },
    { type: 'image', mediaType: 'image/png', data: png },
  ]);
  expect(renderResult({ content: [], structuredContent: { temperature: 21 } }).text).toBe('{\n  "temperature": 21\n}');
  // With text beside it, the structured copy is not repeated.
  expect(renderResult({ content: [{ type: 'text', text: '{"temperature":21}' }], structuredContent: { temperature: 21 } }).text).toBe('{"temperature":21}');
  expect(renderResult({ content: [], isError: true })).toEqual({ text: '(the tool returned no content)', images: [], isError: true });
});

test('images: at most MAX_IMAGES per result and MAX_IMAGE_BASE64_CHARS for all of them; the rest are described, not dropped', () => {
  const many = Array.from({ length: MAX_IMAGES + 1 }, () => ({ type: 'image', data: png, mimeType: 'image/png' }));
  const rendered = renderResult({ content: many });
  expect(rendered.images).toHaveLength(MAX_IMAGES);
  expect(rendered.text).toContain(`more than ${MAX_IMAGES} images in one result`);
  const sized = (chars: number): string => png + 'A'.repeat(chars - png.length);
  const atLimit = renderResult({ content: [{ type: 'image', data: sized(MAX_IMAGE_BASE64_CHARS), mimeType: 'image/png' }] });
  expect(atLimit.images).toHaveLength(1);
  const over = renderResult({ content: [{ type: 'image', data: sized(MAX_IMAGE_BASE64_CHARS + 1), mimeType: 'image/png' }] });
  expect(over.images).toEqual([]);
  expect(over.text).toContain('would pass the image size limit');
  const two = renderResult({ content: [{ type: 'image', data: sized(MAX_IMAGE_BASE64_CHARS / 2), mimeType: 'image/png' }, { type: 'image', data: sized(MAX_IMAGE_BASE64_CHARS / 2 + 1), mimeType: 'image/png' }] });
  expect(two.images).toHaveLength(1);
});

test('text over the read limits is cut at the boundary and saved whole for read_file', async () => {
  const root = tempDir('mewcode-mcp-content-');
  const limits = createOutputLimits(path.join(root, '.mewcode', 'tool-output'));
  const atLines = Array.from({ length: limits.readMaxLines }, (_, i) => `l${i}`).join('\n');
  expect(await capText(atLines, limits, 'call_a')).toBe(atLines);
  const overLines = `${atLines}\nextra`;
  const cut = await capText(overLines, limits, 'call_b');
  expect(cut.startsWith(`${atLines}\n\n[Result cut at`)).toBe(true);
  const saved = /saved in (\S+): read it/.exec(cut)![1]!;
  expect(readFileSync(saved, 'utf8')).toBe(overLines);
  // A session's call: in its own folder, which no other session's tools or commands may read.
  const own = /saved in (\S+): read it/.exec(await capText(overLines, limits, 'call_e', '20261207-120000-aaaa'))![1]!;
  expect(path.dirname(own)).toBe(path.join(root, '.mewcode', 'tool-output', '20261207-120000-aaaa'));
  expect(readFileSync(own, 'utf8')).toBe(overLines);

  const atBytes = 'x'.repeat(limits.readMaxBytes);
  expect(await capText(atBytes, limits, 'call_c')).toBe(atBytes);
  const overBytes = await toToolOutput({ content: [{ type: 'text', text: `${atBytes}y` }] }, limits, 'call_d');
  expect(overBytes.content).toContain(`[Result cut at ${limits.readMaxBytes} bytes;`);
  expect(overBytes.content).toContain(`(${limits.readMaxBytes + 1} bytes, 1 lines)`);
});
