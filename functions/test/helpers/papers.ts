import { call } from './api';

// Tiny files with the real leading bytes of each format (the API reads types from the bytes).
export const FIXTURES = {
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR fake png body')]),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF fake jpeg body')]),
  pdf: Buffer.from('%PDF-1.7\n1 0 obj <<>> endobj\n%%EOF\n'),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x10, 0, 0, 0]), Buffer.from('WEBPVP8 fake')]),
  text: Buffer.from('just some text, not a document'),
};

export async function uploadPaper(
  token: string | undefined,
  form: { applicationId?: string; kind?: string; file?: { data: Buffer; type: string; name?: string }; field?: string },
) {
  const body = new FormData();
  if (form.applicationId) body.append('applicationId', form.applicationId);
  if (form.kind) body.append('kind', form.kind);
  if (form.file) body.append(form.field ?? 'file', new Blob([form.file.data], { type: form.file.type }), form.file.name ?? 'paper');
  return call('POST', '/kyc/papers', { token, form: body });
}

export const DRIVER_PAPERS = [
  ['IDENTITY', FIXTURES.jpeg, 'image/jpeg'],
  ['DRIVER_LICENCE', FIXTURES.png, 'image/png'],
  ['VEHICLE_REGISTRATION', FIXTURES.pdf, 'application/pdf'],
] as const;

export const PARTNER_PAPERS = [
  ['IDENTITY', FIXTURES.jpeg, 'image/jpeg'],
  ['BUSINESS_LICENCE', FIXTURES.pdf, 'application/pdf'],
] as const;

export async function uploadAll(token: string, applicationId: string, papers: ReadonlyArray<readonly [string, Buffer, string]>) {
  for (const [kind, data, type] of papers) {
    const res = await uploadPaper(token, { applicationId, kind, file: { data, type } });
    if (res.status !== 201) throw new Error(`upload ${kind}: ${res.status} ${JSON.stringify(res.body)}`);
  }
}
