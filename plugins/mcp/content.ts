/**
 * An MCP tool result as the model sees it (M7). Nothing is dropped silently (the seed kept
 * only text):
 * - text blocks are joined with newlines;
 * - images go to the model as images (ToolOutput.images; a provider that takes none describes
 *   them), typed by their bytes (PNG, JPEG, GIF, WebP; anything else is described), up to
 *   MAX_IMAGES per result and MAX_IMAGE_BASE64_CHARS for all of them, the rest described;
 *   an embedded resource whose blob is an image counts as an image;
 * - embedded text resources are shown with their URI, binary ones and audio are described;
 * - resource links are listed with URI, name, type and description;
 * - `structuredContent` is shown as JSON when the result has no text (servers are asked to put
 *   the same JSON in a text block, e.g. server-filesystem does; showing both would double it);
 * - text beyond the read limits (lines, bytes) is cut, and the whole text saved to a file the
 *   model can page through with read_file.
 */
import { closeSync, writeFileSync } from 'node:fs';
import type { ImageBlock } from '../../types/messages.js';
import type { OutputLimits } from '../../types/output-limits.js';
import type { ToolOutput } from '../../types/tools.js';

export const MAX_IMAGES = 10;
/**
 * ≈ 3.75 MB decoded, per image and for all images of one result together: within every vendor's
 * per-image limit (Anthropic: 5 MB), and far from the request limit the history re-sends them in.
 */
export const MAX_IMAGE_BASE64_CHARS = 5_000_000;

/** What the bytes are, whatever the server says (a wrong type makes the vendor refuse the whole request). */
export function sniffImageType(base64: string): string | undefined {
  const head = Buffer.from(base64.slice(0, 24), 'base64');
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && ['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (head.length >= 12 && head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return undefined;
}

type Block = Record<string, unknown> & { type?: unknown };

export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

function sizeOfBase64(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4);
  return bytes >= 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${bytes} bytes`;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function renderResult(result: McpCallResult): { text: string; images: ImageBlock[]; isError: boolean } {
  const lines: string[] = [];
  const images: ImageBlock[] = [];
  let imageChars = 0;
  const image = (data: string, declared: string, label: string): void => {
    const mediaType = sniffImageType(data);
    if (mediaType === undefined) lines.push(`[${label}: ${declared}, ${sizeOfBase64(data)}, not shown: its bytes are not PNG, JPEG, GIF or WebP]`);
    else if (images.length >= MAX_IMAGES) lines.push(`[${label}: ${mediaType}, ${sizeOfBase64(data)}, not shown: more than ${MAX_IMAGES} images in one result]`);
    else if (imageChars + data.length > MAX_IMAGE_BASE64_CHARS) lines.push(`[${label}: ${mediaType}, ${sizeOfBase64(data)}, not shown: the result's images would pass the image size limit]`);
    else {
      imageChars += data.length;
      images.push({ type: 'image', mediaType, data });
    }
  };
  const blocks = Array.isArray(result.content) ? (result.content as Block[]) : [];
  let hasText = false;
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) continue;
    switch (block.type) {
      case 'text':
        hasText = true;
        lines.push(str(block.text) ?? '');
        break;
      case 'image':
        if (str(block.data) !== undefined) image(block.data as string, str(block.mimeType) ?? 'image/png', 'image');
        break;
      case 'audio':
        lines.push(`[audio: ${str(block.mimeType) ?? 'unknown type'}, ${sizeOfBase64(str(block.data) ?? '')}, not shown: audio is not passed to the model]`);
        break;
      case 'resource_link': {
        const name = str(block.title) ?? str(block.name) ?? '';
        const details = [str(block.mimeType), str(block.description)].filter(Boolean).join(', ');
        lines.push(`Resource link: ${name ? `${name} ` : ''}<${str(block.uri) ?? '?'}>${details ? ` (${details})` : ''}`);
        break;
      }
      case 'resource': {
        const resource = (typeof block.resource === 'object' && block.resource !== null ? block.resource : {}) as Block;
        const uri = str(resource.uri) ?? '?';
        const mediaType = str(resource.mimeType);
        if (str(resource.text) !== undefined) {
          hasText = true;
          lines.push(`Resource <${uri}>${mediaType ? ` (${mediaType})` : ''}:`, resource.text as string);
        } else if (str(resource.blob) !== undefined) {
          if (mediaType?.startsWith('image/')) image(resource.blob as string, mediaType, `image resource <${uri}>`);
          else lines.push(`[resource <${uri}>: ${mediaType ?? 'binary'}, ${sizeOfBase64(resource.blob as string)}, binary content not shown]`);
        } else lines.push(`Resource <${uri}> (no content)`);
        break;
      }
      default:
        lines.push(`[content of type ${JSON.stringify(block.type)} not shown: this client does not know it]`);
    }
  }
  if (!hasText && result.structuredContent !== undefined && result.structuredContent !== null) {
    lines.push(JSON.stringify(result.structuredContent, null, 2));
  }
  let text = lines.join('\n');
  if (text === '' && images.length === 0) text = '(the tool returned no content)';
  return { text, images, isError: result.isError === true };
}

/** Cut text beyond the read limits; the whole text is saved for read_file, in the session's own spill folder (readable by it alone). */
export async function capText(text: string, limits: OutputLimits | undefined, toolCallId: string, sessionId?: string): Promise<string> {
  if (!limits) return text;
  const bytes = Buffer.byteLength(text);
  let lineCount = 1;
  let lineCut = -1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (++lineCount > limits.readMaxLines && lineCut < 0) lineCut = i;
  }
  if (bytes <= limits.readMaxBytes && lineCut < 0) return text;
  let head = lineCut >= 0 ? text.slice(0, lineCut) : text;
  head = limits.cutBytes(head, limits.readMaxBytes).text;
  let where: string;
  try {
    // Opened by the limits service, which refuses links on the way (a repository could commit them).
    const { path: file, fd } = await limits.openSpillFile(toolCallId, 'mcp.txt', sessionId);
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
    where = `the whole result (${bytes} bytes, ${lineCount} lines) is saved in ${file}: read it with read_file, in parts`;
  } catch (error) {
    where = `the rest could not be saved (${(error as Error).message})`;
  }
  return `${head}\n\n[Result cut at ${Buffer.byteLength(head)} bytes; ${where}.]`;
}

export async function toToolOutput(result: McpCallResult, limits: OutputLimits | undefined, toolCallId: string, sessionId?: string): Promise<ToolOutput> {
  const rendered = renderResult(result);
  const output: ToolOutput = { content: await capText(rendered.text, limits, toolCallId, sessionId), isError: rendered.isError };
  if (rendered.images.length > 0) output.images = rendered.images;
  return output;
}
