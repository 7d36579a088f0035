import type { Server } from 'node:http';

export default async function stopInProcessApi(): Promise<void> {
  const server = (globalThis as { __superappApi?: Server }).__superappApi;
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
