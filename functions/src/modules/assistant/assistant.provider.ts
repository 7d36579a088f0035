import { z } from 'zod';

// An OpenAI-compatible chat completions client with tool calling: the model asks for tools, we run them and send
// their results back, until it answers in text (at most maxSteps model calls).

export interface ToolSpec {
  name: string;
  description: string;
  /** A JSON Schema object. */
  parameters: Record<string, unknown>;
}

export interface ProviderSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
  maxSteps: number;
}

export interface ProviderTurn {
  role: 'user' | 'assistant';
  content: string;
}

export type ProviderFailure = 'timeout' | 'http' | 'malformed' | 'too_many_steps' | 'network';

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly reason: ProviderFailure,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

export interface ProviderAnswer {
  text: string;
  toolCalls: Array<{ name: string; args: unknown }>;
  steps: number;
}

const WireToolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function').default('function'),
  // Arguments are a JSON text; a few compatible servers send the object itself.
  function: z.object({ name: z.string(), arguments: z.union([z.string(), z.record(z.string(), z.unknown())]).default('{}') }),
});
const CompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z.array(WireToolCallSchema).nullish(),
        }),
      }),
    )
    .min(1),
});
type WireToolCall = z.infer<typeof WireToolCallSchema>;

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; content: string };

// Error messages go to logs: a server echoing the key (some quote it in a 401 body) must not put it there.
function redacted(text: string, apiKey: string): string {
  return apiKey ? text.split(apiKey).join('[redacted]') : text;
}

async function requestCompletion(
  settings: ProviderSettings,
  body: Record<string, unknown>,
  fetchImpl: typeof fetch,
): Promise<z.infer<typeof CompletionSchema>['choices'][number]['message']> {
  const url = `${settings.baseUrl.replace(/\/$/, '')}/chat/completions`;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), settings.timeoutMs);
  let status: number;
  let text: string;
  try {
    const res = await fetchImpl(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    status = res.status;
    // The body is read under the same timeout: a server may send headers, then stall.
    text = await res.text();
  } catch (err) {
    if (controller.signal.aborted) throw new ProviderError(`chat completions: no answer within ${settings.timeoutMs} ms`, 'timeout');
    throw new ProviderError(redacted(`chat completions: request failed (${err instanceof Error ? err.message : String(err)})`, settings.apiKey), 'network');
  } finally {
    clearTimeout(timer);
  }
  if (status < 200 || status > 299) {
    // The status only: a provider's error body may echo the key (partly masked) or the conversation.
    throw new ProviderError(`chat completions: HTTP ${status}`, 'http');
  }
  return parseCompletion(text).choices[0].message;
}

function parseCompletion(text: string): z.infer<typeof CompletionSchema> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ProviderError('chat completions: the answer is not JSON', 'malformed');
  }
  const parsed = CompletionSchema.safeParse(json);
  if (!parsed.success) throw new ProviderError(`chat completions: unexpected answer shape (${parsed.error.issues[0]?.path.join('.') || 'root'})`, 'malformed');
  return parsed.data;
}

// Unparsable arguments reach the tool as {}: it answers an error object the model can read and correct.
function argumentsOf(call: WireToolCall): unknown {
  const raw = call.function.arguments;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return {};
  }
}

// Sent back as the model wrote it, as JSON text (what the API expects) when a server sent an object.
function wireArguments(call: WireToolCall): string {
  const raw = call.function.arguments;
  return typeof raw === 'string' ? raw : JSON.stringify(raw);
}

/**
 * Runs the conversation until the model answers in text. Tool calls of one reply run one after another, in order;
 * a tool name the model made up goes to runTool too (it answers an error object). Throws ProviderError.
 */
export async function completeWithTools(
  settings: ProviderSettings,
  input: { system: string; history: readonly ProviderTurn[]; tools: readonly ToolSpec[] },
  runTool: (name: string, args: unknown) => Promise<unknown>,
  fetchImpl: typeof fetch = fetch,
): Promise<ProviderAnswer> {
  const messages: ChatMessage[] = [{ role: 'system', content: input.system }, ...input.history.map((t) => ({ role: t.role, content: t.content }))];
  const tools = input.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
  const toolCalls: ProviderAnswer['toolCalls'] = [];
  for (let step = 1; step <= settings.maxSteps; step += 1) {
    const body = { model: settings.model, messages, ...(tools.length > 0 ? { tools, tool_choice: 'auto' } : {}), temperature: 0 };
    const message = await requestCompletion(settings, body, fetchImpl);
    const calls = message.tool_calls ?? [];
    if (calls.length === 0) {
      const text = message.content?.trim() ?? '';
      if (!text) throw new ProviderError('chat completions: an empty answer', 'malformed');
      return { text, toolCalls, steps: step };
    }
    // The last allowed call asked for more tools: their results could not be used.
    if (step === settings.maxSteps) break;
    const echoed = calls.map((c) => ({ ...c, function: { name: c.function.name, arguments: wireArguments(c) } }));
    messages.push({ role: 'assistant', content: message.content ?? null, tool_calls: echoed });
    for (const call of calls) {
      const args = argumentsOf(call);
      toolCalls.push({ name: call.function.name, args });
      const result = await runTool(call.function.name, args);
      messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(result ?? null) });
    }
  }
  throw new ProviderError(`chat completions: still calling tools after ${settings.maxSteps} model calls`, 'too_many_steps');
}
