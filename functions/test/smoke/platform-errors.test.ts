import { API, BASE_URL, requireEmulators } from '../helpers/emulators';

beforeAll(requireEmulators);

describe('platform errors through the emulator stack', () => {
  it('an unknown route is a 404 naming method and path', async () => {
    const res = await fetch(`${API}/nope`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body).toEqual({
      statusCode: 404,
      error: 'Not Found',
      code: 'NOT_FOUND',
      message: 'Cannot DELETE /api/v1/nope',
      requestId: res.headers.get('x-request-id'),
    });
  });

  it('malformed JSON is refused with 400 before any handler runs', async () => {
    // On Cloud Functions the platform parses JSON before the app; it answers 400 itself.
    const res = await fetch(`${API}/health`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":' });
    expect(res.status).toBe(400);
  });

  it('a JSON body over JSON_BODY_LIMIT_BYTES is a 413 with the standard body', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(150 * 1024) });
    const res = await fetch(`${API}/health`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('a wrong method on a known path is a 404 in the standard shape', async () => {
    const res = await fetch(`${API}/health`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { message: string }).message).toBe('Cannot POST /api/v1/health');
  });

  it('the hosting root serves the landing page that links the API', async () => {
    const res = await fetch(`${BASE_URL}/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('/api/v1/health');
  });
});
