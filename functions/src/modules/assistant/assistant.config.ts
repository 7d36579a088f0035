import { choice, defineSwitches, optionalText, optionalUrl, positiveInt, type ConfigOf } from '../../platform/core/config/switches';

// The assistant's switches: offline (intent rules, retrieval and templates; the default) or a hosted model reached
// through an OpenAI-compatible chat-completions API with tool calling.
export const assistantSwitches = defineSwitches(
  {
    ASSISTANT_PROVIDER: {
      schema: choice(['offline', 'openai-compatible'], 'offline'),
      effect:
        '`offline`: intent rules, BM25 over the published CMS pages and templated answers (no network); `openai-compatible`: a hosted model with tool calling (`ASSISTANT_BASE_URL`, `ASSISTANT_API_KEY`, `ASSISTANT_MODEL`); on its failure the offline answer is given',
    },
    ASSISTANT_BASE_URL: {
      schema: optionalUrl(),
      effect: 'the chat-completions API of `ASSISTANT_PROVIDER=openai-compatible` (e.g. `https://api.openai.com/v1`)',
    },
    ASSISTANT_API_KEY: { schema: optionalText, effect: 'the bearer key of that API', secret: true },
    ASSISTANT_MODEL: { schema: optionalText, effect: 'the model name sent to that API' },
    ASSISTANT_TIMEOUT_MS: { schema: positiveInt(8_000, 60_000, 500), effect: 'how long one model call may take before the offline answer is given' },
  },
  {
    check: (v) =>
      v.ASSISTANT_PROVIDER === 'openai-compatible' && (!v.ASSISTANT_BASE_URL || !v.ASSISTANT_API_KEY || !v.ASSISTANT_MODEL)
        ? ['ASSISTANT_BASE_URL, ASSISTANT_API_KEY and ASSISTANT_MODEL are required when ASSISTANT_PROVIDER=openai-compatible']
        : [],
  },
);

declare module '../../platform/core/config/switches' {
  interface ModuleConfig extends ConfigOf<typeof assistantSwitches> {}
}
