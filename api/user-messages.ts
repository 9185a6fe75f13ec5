/**
 * `prompt`: one string, or an async iterable of user messages (streaming input), each one a turn
 * of the same session. A message is a string or Claude's SDKUserMessage shape,
 * `{ type: 'user', message: { role: 'user', content } }` with `content` a string or text blocks.
 */
export interface UserMessageBlock {
  type: string;
  text?: string;
}

export interface SdkUserMessage {
  type: 'user';
  message: { role: 'user'; content: string | UserMessageBlock[] };
  session_id?: string;
  parent_tool_use_id?: string | null;
}

export type UserMessage = string | SdkUserMessage;

export type Prompt = string | AsyncIterable<UserMessage>;

/** The text of each turn, in order; a message MewCode cannot take is a TypeError naming what is wrong. */
export async function* promptTexts(prompt: Prompt): AsyncGenerator<string> {
  if (typeof prompt === 'string') {
    yield nonEmpty(prompt, 'prompt');
    return;
  }
  if (prompt === null || typeof prompt !== 'object' || typeof (prompt as AsyncIterable<UserMessage>)[Symbol.asyncIterator] !== 'function') {
    throw new TypeError('prompt must be a string or an async iterable of user messages');
  }
  let index = 0;
  for await (const message of prompt) {
    const where = `prompt message ${index + 1}`;
    yield nonEmpty(messageText(message, index++), where);
  }
}

/** A turn needs text: the model's API refuses an empty message, and `mewcode -p ""` refuses it too. */
function nonEmpty(text: string, where: string): string {
  if (text.trim() === '') throw new TypeError(`${where} is empty: a turn needs some text`);
  return text;
}

function messageText(message: UserMessage, index: number): string {
  if (typeof message === 'string') return message;
  const where = `prompt message ${index + 1}`;
  if (typeof message !== 'object' || message === null || message.type !== 'user' || typeof message.message !== 'object' || message.message === null) {
    throw new TypeError(`${where}: expected a string or { type: 'user', message: { role: 'user', content } }`);
  }
  const content = message.message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new TypeError(`${where}: message.content must be a string or a list of text blocks`);
  return content
    .map((block, i) => {
      if (block?.type !== 'text' || typeof block.text !== 'string') throw new TypeError(`${where}: content block ${i + 1} is ${JSON.stringify(block?.type)}; only text blocks are taken`);
      return block.text;
    })
    .join('\n\n');
}
