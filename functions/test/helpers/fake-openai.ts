import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A fake OpenAI-compatible chat completions server (POST /v1/chat/completions) on a loopback port, answering what a
// test script says. Plain node:http, no jest globals: unit and integration tests both use it.

export interface FakeToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}
export interface FakeMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: FakeToolCall[];
}
export interface FakeTool {
  type: string;
  function: { name: string; description: string; parameters: Record<string, unknown> };
}
export interface FakeRequest {
  messages: FakeMessage[];
  tools: FakeTool[];
  model: string;
  authorization: string | undefined;
  /** The whole request body (temperature, tool_choice…). */
  body: Record<string, unknown>;
}

/**
 * What the server answers: a text; tool calls (`args` sent as JSON text, or verbatim when a string, to send bad
 * JSON); a raw status and body (default body: an OpenAI-style error); or another reply after a delay.
 */
export type FakeReply =
  { content: string } | { toolCalls: Array<{ name: string; args: unknown }> } | { status: number; body?: string } | { delayMs: number; reply: FakeReply };

export interface FakeOpenAi {
  /** The base URL, ending in /v1 (the client appends /chat/completions). */
  url: string;
  requests: FakeRequest[];
  close(): Promise<void>;
}

type Script = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

function completionOf(message: Record<string, unknown>, model: string, finishReason: string): string {
  return JSON.stringify({
    id: `chatcmpl-fake`,
    object: 'chat.completion',
    created: 0,
    model,
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
  });
}

function send(res: http.ServerResponse, status: number, body: string, contentType = 'application/json'): void {
  if (res.destroyed || res.headersSent) return;
  res.writeHead(status, { 'content-type': contentType }).end(body);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function requestOf(body: Record<string, unknown>, authorization: string | undefined): FakeRequest {
  return {
    messages: Array.isArray(body.messages) ? (body.messages as FakeMessage[]) : [],
    tools: Array.isArray(body.tools) ? (body.tools as FakeTool[]) : [],
    model: typeof body.model === 'string' ? body.model : '',
    authorization,
    body,
  };
}

/** Starts the server; every request body is recorded, in order, before the script answers it. */
export async function startFakeOpenAi(script: Script): Promise<FakeOpenAi> {
  const requests: FakeRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let callCount = 0;
  const later = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const answer = async (res: http.ServerResponse, reply: FakeReply, model: string): Promise<void> => {
    if ('delayMs' in reply) {
      await later(reply.delayMs);
      return answer(res, reply.reply, model);
    }
    if ('status' in reply) return send(res, reply.status, reply.body ?? JSON.stringify({ error: { message: 'fake error', type: 'server_error' } }));
    if ('content' in reply) return send(res, 200, completionOf({ content: reply.content }, model, 'stop'));
    callCount += 1;
    const toolCalls = reply.toolCalls.map((c, i) => ({
      id: `call_${callCount}_${i}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
    }));
    return send(res, 200, completionOf({ content: null, tool_calls: toolCalls }, model, 'tool_calls'));
  };

  const server = http.createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return send(res, 404, '{"error":{"message":"not found"}}');
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(await readBody(req)) as Record<string, unknown>;
      } catch {
        return send(res, 400, '{"error":{"message":"the body is not JSON"}}');
      }
      const request = requestOf(body, req.headers.authorization);
      requests.push(request);
      await answer(res, await script(request), request.model);
    })().catch((err: unknown) => send(res, 500, JSON.stringify({ error: { message: `fake script failed: ${String(err)}` } })));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        // Keep-alive sockets of the client would hold close() open for seconds.
        server.closeAllConnections();
      }),
  };
}
