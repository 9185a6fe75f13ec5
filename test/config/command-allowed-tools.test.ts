// What the trust scan reads of a command file's allowed-tools without a YAML parser
// (config/command-files.ts): each spelling the custom-commands plugin honours is found, so trust
// lists the file; an empty value lists nothing.
import { commandAllowedTools } from '../../config/command-files.js';

test.each([
  ['an inline list of names', '---\nallowed-tools: Bash, Write\n---\nx', ['Bash', 'Write']],
  ['a flow list', '---\nallowed-tools: [Read, "Bash(git status:*)"]\n---\nx', ['Read', 'Bash(git status:*)']],
  ['a block list', '---\ndescription: d\nallowed-tools:\n  - Bash(gh pr view:*)\n  - "Read"\n---\nx', ['Bash(gh pr view:*)', 'Read']],
  ['the underscore spelling, a quoted key', '---\n"allowed_tools": Edit\n---\nx', ['Edit']],
  ['a byte-order mark and CRLF line ends', '\uFEFF---\r\nallowed-tools: Bash\r\n---\r\nx', ['Bash']],
  ['an empty value', '---\nallowed-tools: ""\n---\nx', []],
  ['no frontmatter', 'allowed-tools: Bash\n', []],
  ['the key below the frontmatter', '---\nmodel: x\n---\nallowed-tools: Bash\n', []],
])('%s', (_label, text, tools) => {
  expect(commandAllowedTools(text)).toEqual(tools);
});
