// The README's query() example, run by the test suite (test/api/readme-example.test.ts).
// Usage: ANTHROPIC_API_KEY=… MEWCODE_MODEL=… node query.mjs   (in the project to work on)
import { query } from 'mewcode';

const run = query({
  prompt: 'Summarise this project in summary.md.',
  options: {
    cwd: process.cwd(),
    allowedTools: ['Read', 'Glob', 'Grep'],
    // Asked whenever MewCode would ask a person: here only Markdown files may be written.
    canUseTool: async (toolName, input) =>
      toolName === 'write_file' && String(input.file_path).endsWith('.md')
        ? { behavior: 'allow' }
        : { behavior: 'deny', message: `${toolName} is not allowed here: only Markdown files may be written` },
    systemPrompt: { append: 'Keep every answer to one short paragraph.' },
    maxTurns: 10,
  },
});

for await (const message of run) {
  if (message.type === 'text_delta') process.stdout.write(message.text);
  if (message.type === 'tool_use') console.error(`[${message.name}] ${JSON.stringify(message.input)}`);
  if (message.type === 'result') console.log(`\n${message.subtype}: ${message.num_turns} turns, ${message.usage.output_tokens} output tokens`);
}
