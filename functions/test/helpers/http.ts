import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Express } from 'express';

// Runs an app on an ephemeral loopback port for in-process HTTP tests.
export async function listen(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // Idle sockets outlive the client's own keep-alive (undici's 4 s): a loaded machine never reuses one the server
  // is closing (ECONNRESET).
  server.keepAliveTimeout = 60_000;
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the test is over: its kept-alive sockets need not wait out their timeout
      }),
  };
}
