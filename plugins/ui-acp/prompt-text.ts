/**
 * An ACP prompt (content blocks) as the one text a MewCode run takes. Text is kept as written; a
 * resource link becomes a line naming the file (the model reads it with its tools, under the
 * permission layers like any read); an embedded resource is inlined with its URI, because the
 * editor sent its content (an unsaved buffer may differ from the disk), its tags made inert in
 * the text so it cannot close itself or forge another. Blocks this agent does not
 * advertise (images, audio) are refused with a message naming the block, never dropped silently.
 */
import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { PromptPart } from '../../types/messages.js';

export type PromptText = { ok: true; text: string } | { ok: false; error: string };

export function promptText(blocks: readonly ContentBlock[]): PromptText {
  const parts: string[] = [];
  for (const [index, block] of blocks.entries()) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`[file: ${displayPath(block.uri)}${block.name && block.name !== baseName(block.uri) ? ` (${block.name})` : ''}]`);
        break;
      case 'resource': {
        const resource = block.resource;
        if ('text' in resource && typeof resource.text === 'string') {
          parts.push(`<resource uri="${attribute(displayPath(resource.uri))}">\n${inert(resource.text)}\n</resource>`);
        } else {
          parts.push(`[file: ${displayPath(resource.uri)} (binary content not included)]`);
        }
        break;
      }
      default:
        return { ok: false, error: `prompt block ${index} is of type "${block.type}", which this agent does not accept (see promptCapabilities in the initialize response)` };
    }
  }
  const text = parts.join('\n\n').trim();
  if (text === '') return { ok: false, error: 'the prompt is empty: send at least one text, resource_link or resource block with content' };
  return { ok: true, text };
}

/**
 * The prompt's blocks as the kernel keeps them with the prompt's message (PromptPart), so a
 * session/load replays them as the blocks they were sent as, not as the text they became.
 * Called once promptText accepted them.
 */
export function promptParts(blocks: readonly ContentBlock[]): PromptPart[] {
  const parts: PromptPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'resource_link') parts.push({ type: 'resource_link', uri: block.uri, name: block.name, ...(block.mimeType ? { mimeType: block.mimeType } : {}) });
    else if (block.type === 'resource') {
      const resource = block.resource;
      const text = 'text' in resource && typeof resource.text === 'string' ? resource.text : undefined;
      parts.push({ type: 'resource', uri: resource.uri, ...(text !== undefined ? { text } : {}), ...(resource.mimeType ? { mimeType: resource.mimeType } : {}) });
    }
  }
  return parts;
}

/** An attribute value that cannot end its quotes or its tag. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * A resource's text with every tag that could close the resource or open another (`</resource>`,
 * `<resource uri=…>`, any case or spacing) made inert (its `<` as `&lt;`): the file's content
 * cannot forge a second resource in the prompt. Other text is kept as written.
 *
 * The tag is recognised as a reader sees it: invisible characters (zero-width spaces, joiners,
 * soft hyphens, bidi marks, variation selectors, any format or default-ignorable code point, a
 * combining mark) are skipped wherever they stand, between `<` and `/` as inside the name, and the
 * letters are compared after compatibility folding (a full-width `ｒ` is an `r`). A model may
 * well read `<\u200b/resource>` as the closing tag; the file must not be able to write it.
 */
function inert(text: string): string {
  return text.replace(OPENING, (bracket, at: number) => (looksLikeResourceTag(text, at + bracket.length) ? '&lt;' : bracket));
}

/** `<` and the characters that fold to it (full-width, small form). */
const OPENING = /[<\uff1c\ufe64]/g;
/** Skipped when deciding: nothing a reader sees, or only a mark on the character before. */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{M}]/u;
const TAG_NAME = 'resource';

/** Whether the text from `from` reads `\s* /? \s* resource` and then ends the word, invisible characters skipped. */
function looksLikeResourceTag(text: string, from: number): boolean {
  let at = from;
  const next = (): string | undefined => {
    while (at < text.length) {
      const char = String.fromCodePoint(text.codePointAt(at)!);
      at += char.length;
      if (!INVISIBLE.test(char)) return char.normalize('NFKC').toLowerCase();
    }
    return undefined;
  };
  let char = next();
  while (char !== undefined && /^\s+$/.test(char)) char = next();
  if (char === '/') {
    char = next();
    while (char !== undefined && /^\s+$/.test(char)) char = next();
  }
  for (const letter of TAG_NAME) {
    if (char !== letter) return false;
    char = next();
  }
  // `<resources>` or `<resourceful` is another word, not this tag.
  return char === undefined || !/^[\p{L}\p{N}_]/u.test(char);
}

/** A `file://` URI as the path the model's tools take; any other URI as written. */
function displayPath(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

function baseName(uri: string): string {
  return displayPath(uri).split('/').pop() ?? uri;
}
