import fs from 'node:fs';
import path from 'node:path';
import { BASE_URL, requireEmulators } from '../helpers/emulators';

beforeAll(requireEmulators);

describe('interactive docs', () => {
  it('/docs-json serves the same document as openapi/openapi.json', async () => {
    const res = await fetch(`${BASE_URL}/docs-json`);
    expect(res.status).toBe(200);
    const served = (await res.json()) as { tags: Array<{ name: string }>; paths: Record<string, Record<string, { tags: string[] }>> };
    const checkedIn = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'openapi', 'openapi.json'), 'utf8'));
    expect(served).toEqual(checkedIn);
    // The tags that have operations, each listed once (verticals not built yet are left out).
    const used = new Set(Object.values(served.paths).flatMap((item) => Object.values(item).flatMap((op) => op.tags)));
    expect(served.tags.map((t) => t.name).sort()).toEqual([...used].sort());
  });

  it('/docs serves the Firestore contract of openapi/ (JSON Schema and TypeScript) through Hosting', async () => {
    for (const file of ['firestore.schema.json', 'firestore-documents.d.ts']) {
      const res = await fetch(`${BASE_URL}/docs/${file}`);
      expect([file, res.status]).toEqual([file, 200]);
      expect(await res.text()).toBe(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'openapi', file), 'utf8'));
    }
  });

  it('/docs serves Swagger UI with its assets', async () => {
    const redirect = await fetch(`${BASE_URL}/docs`, { redirect: 'manual' });
    expect([301, 302]).toContain(redirect.status);
    expect(redirect.headers.get('location')).toBe('/docs/');
    const page = await fetch(`${BASE_URL}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('swagger-ui');
    const css = await fetch(`${BASE_URL}/docs/swagger-ui.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    const init = await (await fetch(`${BASE_URL}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('"openapi": "3.1.0"');
  });
});
