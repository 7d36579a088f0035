import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The audio fixtures, and what the local storage adapter holds (the API and the tests share the machine's tmpdir).
export const audioFixture = (name: string) => fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'audio', name));

export const storageRoot = path.join(os.tmpdir(), 'superapp-storage', 'demo-superapp');

/** The stored objects of one owner (its items' bytes, or its presigned uploads), sidecars and partial writes aside. */
export function storedFiles(ownerId: string, area: 'media' | 'uploads' = 'media'): string[] {
  const dir = path.join(storageRoot, area, ownerId);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => !f.endsWith('.meta.json') && !f.endsWith('.tmp')) : [];
}
