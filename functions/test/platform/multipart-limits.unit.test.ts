import express from 'express';
import { streamMultipart } from '../../src/platform/core/http/multipart';
import { errorHandler } from '../../src/platform/core/errors/error-handler';
import { listen } from '../helpers/http';

// The size limit of streamed multipart files: a file of exactly the limit passes, one byte more is 413
// (busboy signals its limit on *reaching* it).
describe('multipart file size limit', () => {
  const LIMIT = 64 * 1024;
  const app = express();
  app.post('/upload', (req, res, next) => {
    streamMultipart(req, { fileFields: ['file'], maxFiles: 2, maxFileBytes: LIMIT }, async (file) => {
      let size = 0;
      for await (const chunk of file.stream) size += (chunk as Buffer).length;
      return size;
    })
      .then(({ files }) => res.json({ sizes: files }))
      .catch(next);
  });
  app.use((_req, res, next) => {
    res.locals.requestId = 'test';
    next();
  });
  app.use(errorHandler);

  const send = async (url: string, sizes: number[]) => {
    const form = new FormData();
    for (const size of sizes) form.append('file', new Blob([Buffer.alloc(size, 1)], { type: 'audio/mpeg' }), 'f.mp3');
    const res = await fetch(`${url}/upload`, { method: 'POST', body: form });
    return { status: res.status, body: (await res.json()) as { sizes?: number[]; code?: string } };
  };

  it('accepts exactly the limit and refuses one byte more with 413', async () => {
    const server = await listen(app);
    try {
      expect(await send(server.url, [LIMIT])).toEqual({ status: 200, body: { sizes: [LIMIT] } });
      expect(await send(server.url, [LIMIT - 1, LIMIT])).toEqual({ status: 200, body: { sizes: [LIMIT - 1, LIMIT] } });
      const over = await send(server.url, [LIMIT + 1]);
      expect([over.status, over.body.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    } finally {
      await server.close();
    }
  });
});
