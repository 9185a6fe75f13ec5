/** The synopsis of `mewcode acp` (help and usage errors), apart so the plugin's declaration stays small. */
export const ACP_USAGE = 'acp [--provider P] [--model M] [--permission-mode MODE] [--trust-project] [--allowedTools R...] [--disallowedTools R...] [--max-turns N] [--dangerously-skip-permissions] [--dangerously-skip-sandbox]';
