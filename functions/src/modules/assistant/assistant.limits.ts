// The assistant's named rate-limit scopes: each question reads the caller's records (and, hosted, calls a model); a
// hand-off opens a ticket staff answer; a clear deletes in batches.
export const ASSISTANT_RATE_LIMITS = {
  ask: { scope: 'assistant-message', limit: 30, windowSec: 600, per: 'user' },
  handoff: { scope: 'assistant-handoff', limit: 5, windowSec: 3600, per: 'user' },
  clear: { scope: 'assistant-clear', limit: 10, windowSec: 3600, per: 'user' },
} as const;
