import { completeWithTools, ProviderError, type ProviderSettings, type ToolSpec } from '../../../src/modules/assistant/assistant.provider';
import { type FakeOpenAi, type FakeReply, startFakeOpenAi } from '../../helpers/fake-openai';

const API_KEY = 'sk-test-SECRET-0123456789';
const TOOLS: ToolSpec[] = [
  { name: 'ride_status', description: 'The status of one of your rides', parameters: { type: 'object', properties: { rideId: { type: 'string' } } } },
  { name: 'wallet_balance', description: 'Your wallet balance', parameters: { type: 'object', properties: {} } },
];
const INPUT = { system: 'You are the assistant.', history: [{ role: 'user' as const, content: 'Where is my ride?' }], tools: TOOLS };

let server: FakeOpenAi | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// A server answering the given replies in order, by request (the last one again when asked more).
async function serve(...replies: FakeReply[]): Promise<ProviderSettings> {
  let index = 0;
  server = await startFakeOpenAi(() => replies[Math.min(index++, replies.length - 1)]);
  // The trailing slash is stripped by the client.
  return { baseUrl: `${server.url}/`, apiKey: API_KEY, model: 'fake-model-1', timeoutMs: 2000, maxSteps: 4 };
}

const noTools = async () => {
  throw new Error('no tool expected');
};

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProviderError);
  expect((err as ProviderError).message).not.toContain(API_KEY);
  return err as ProviderError;
}

describe('assistant provider: chat completions with tools', () => {
  it('returns a plain answer, trimmed, after one call with the model, key, tools and settings sent', async () => {
    const settings = await serve({ content: '  Your ride is on its way.  ' });
    const answer = await completeWithTools(settings, INPUT, noTools);
    expect(answer).toEqual({ text: 'Your ride is on its way.', toolCalls: [], steps: 1 });
    const [request] = server!.requests;
    expect(server!.requests).toHaveLength(1);
    expect(request.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.model).toBe('fake-model-1');
    expect(request.body).toMatchObject({ tool_choice: 'auto', temperature: 0 });
    expect(request.messages).toEqual([
      { role: 'system', content: 'You are the assistant.' },
      { role: 'user', content: 'Where is my ride?' },
    ]);
    expect(request.tools).toEqual(TOOLS.map((t) => ({ type: 'function', function: t })));
  });

  it('runs a tool call and sends its result back under the call id', async () => {
    const settings = await serve({ toolCalls: [{ name: 'ride_status', args: { rideId: 'r1' } }] }, { content: 'Arriving in 3 minutes.' });
    const ran: Array<[string, unknown]> = [];
    const answer = await completeWithTools(settings, INPUT, async (name, args) => {
      ran.push([name, args]);
      return { status: 'ARRIVING', etaMin: 3 };
    });
    expect(answer).toEqual({ text: 'Arriving in 3 minutes.', toolCalls: [{ name: 'ride_status', args: { rideId: 'r1' } }], steps: 2 });
    expect(ran).toEqual([['ride_status', { rideId: 'r1' }]]);
    const second = server!.requests[1].messages;
    const assistantTurn = second[2];
    expect(assistantTurn.role).toBe('assistant');
    expect(assistantTurn.tool_calls).toEqual([{ id: 'call_1_0', type: 'function', function: { name: 'ride_status', arguments: '{"rideId":"r1"}' } }]);
    expect(second[3]).toEqual({ role: 'tool', tool_call_id: 'call_1_0', content: '{"status":"ARRIVING","etaMin":3}' });
  });

  it('runs two tool calls of one reply in order, each answered under its own id', async () => {
    const settings = await serve(
      {
        toolCalls: [
          { name: 'ride_status', args: { rideId: 'r1' } },
          { name: 'wallet_balance', args: {} },
        ],
      },
      { content: 'Done.' },
    );
    const answer = await completeWithTools(settings, INPUT, async (name) => ({ tool: name }));
    expect(answer.toolCalls.map((c) => c.name)).toEqual(['ride_status', 'wallet_balance']);
    const toolMessages = server!.requests[1].messages.filter((m) => m.role === 'tool');
    expect(toolMessages).toEqual([
      { role: 'tool', tool_call_id: 'call_1_0', content: '{"tool":"ride_status"}' },
      { role: 'tool', tool_call_id: 'call_1_1', content: '{"tool":"wallet_balance"}' },
    ]);
  });

  it('passes {} for arguments that are not JSON, and lets runTool answer an unknown tool', async () => {
    const settings = await serve(
      {
        toolCalls: [
          { name: 'ride_status', args: '{"rideId": ' },
          { name: 'delete_everything', args: {} },
        ],
      },
      { content: 'Sorry.' },
    );
    const ran: Array<[string, unknown]> = [];
    const answer = await completeWithTools(settings, INPUT, async (name, args) => {
      ran.push([name, args]);
      return name === 'ride_status' ? { error: 'rideId is required' } : { error: 'unknown tool' };
    });
    expect(answer.text).toBe('Sorry.');
    expect(ran).toEqual([
      ['ride_status', {}],
      ['delete_everything', {}],
    ]);
    expect(server!.requests[1].messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      '{"error":"rideId is required"}',
      '{"error":"unknown tool"}',
    ]);
  });

  it('stops after maxSteps model calls that all ask for tools', async () => {
    const settings = await serve({ toolCalls: [{ name: 'wallet_balance', args: {} }] });
    let runs = 0;
    const err = await failureOf(
      completeWithTools({ ...settings, maxSteps: 3 }, INPUT, async () => {
        runs += 1;
        return { balance: 0 };
      }),
    );
    expect(err.reason).toBe('too_many_steps');
    expect(server!.requests).toHaveLength(3);
    // The tools asked for by the last allowed call are not run: nothing could read their results.
    expect(runs).toBe(2);
  });
});

describe('assistant provider: failures', () => {
  it('reports an HTTP error by its status only: nothing the server echoed (the key, partly masked or not; the conversation)', async () => {
    const settings = await serve({ status: 500, body: `{"error":{"message":"bad key ${API_KEY} (${API_KEY.slice(0, 5)}***) for: hello"}}` });
    const err = await failureOf(completeWithTools(settings, INPUT, noTools));
    expect(err.reason).toBe('http');
    expect(err.message).toBe('chat completions: HTTP 500');
  });

  it('times out a reply slower than timeoutMs', async () => {
    const settings = await serve({ delayMs: 1500, reply: { content: 'too late' } });
    const err = await failureOf(completeWithTools({ ...settings, timeoutMs: 150 }, INPUT, noTools));
    expect(err.reason).toBe('timeout');
    expect(server!.requests).toHaveLength(1);
  });

  it.each<[string, FakeReply]>([
    ['a body that is not JSON', { status: 200, body: 'hello' }],
    ['JSON without choices', { status: 200, body: '{"id":"x"}' }],
    ['empty choices', { status: 200, body: '{"choices":[]}' }],
    ['a message without content or tool calls', { status: 200, body: '{"choices":[{"message":{"role":"assistant","content":null}}]}' }],
    ['a blank answer', { content: '   ' }],
    ['a tool call without an id', { status: 200, body: '{"choices":[{"message":{"tool_calls":[{"function":{"name":"x","arguments":"{}"}}]}}]}' }],
  ])('reports %s as malformed', async (_, reply) => {
    const settings = await serve(reply);
    expect((await failureOf(completeWithTools(settings, INPUT, noTools))).reason).toBe('malformed');
  });

  it('reports a refused connection as a network failure, without the key', async () => {
    const settings = await serve({ content: 'unused' });
    await server!.close();
    server = undefined;
    expect((await failureOf(completeWithTools(settings, INPUT, noTools))).reason).toBe('network');
  });

  it('reports a rejected fetch as a network failure (an injected fetch)', async () => {
    const failingFetch: typeof fetch = async () => {
      throw new TypeError(`fetch failed for Bearer ${API_KEY}`);
    };
    const settings = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: API_KEY, model: 'm', timeoutMs: 1000, maxSteps: 2 };
    const err = await failureOf(completeWithTools(settings, INPUT, noTools, failingFetch));
    expect(err.reason).toBe('network');
    expect(err.message).toContain('fetch failed');
  });
});
