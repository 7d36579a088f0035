import fs from 'node:fs';
import type { Server } from 'node:http';

export default async function stopInProcessApi(): Promise<void> {
  const geoCells = (globalThis as { __superappGeoCells?: string }).__superappGeoCells;
  if (geoCells) fs.rmSync(geoCells, { recursive: true, force: true });
  const server = (globalThis as { __superappApi?: Server }).__superappApi;
  if (!server) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
