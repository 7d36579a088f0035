import type { AppContext } from '../../platform/core/http/module';
import { parseMultipart } from '../../platform/core/http/multipart';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { validationErrorFromZod } from '../../platform/core/errors/zod-problems';
import { BadRequestError } from '../../platform/core/errors/app-error';
import { z } from 'zod';
import { DeletedSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { ApplicationSchema, PaperSchema, UploadPaperFieldsSchema, UploadPaperFormSchema } from './kyc.schemas';
import { PAPER_CONTENT_TYPES } from './kyc.service';
import { kycServiceFor } from './kyc.wiring';

export function kycRoutes({ config }: AppContext): AnyRoute[] {
  const kyc = kycServiceFor(config);
  return [
    defineRoute({
      method: 'post',
      path: '/kyc/papers',
      operationId: 'uploadPaper',
      tag: 'kyc',
      summary: 'Upload one paper (image or PDF) to my open application',
      description: `multipart/form-data with fields applicationId and kind and one file in field \`file\`, at most KYC_MAX_FILE_BYTES (default 10 MB; 413 beyond). The content type is read from the bytes: anything but JPEG, PNG, WebP or PDF, or a declared type that differs, is 415.`,
      auth: [],
      multipart: UploadPaperFormSchema,
      errors: [404, 409],
      response: { status: 201, description: 'Stored.', schema: PaperSchema },
      handler: async ({ req, auth }) => {
        const { fields, files } = await parseMultipart(req, { fileFields: ['file'], maxFiles: 1, maxFileBytes: config.KYC_MAX_FILE_BYTES });
        const parsed = UploadPaperFieldsSchema.safeParse(fields);
        if (!parsed.success) throw validationErrorFromZod([{ error: parsed.error, location: 'body' }]);
        if (files.length === 0) throw new BadRequestError('A file is required in field "file"');
        return kyc.uploadPaper(auth!, parsed.data, files[0]);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/kyc/papers',
      operationId: 'listMyPapers',
      tag: 'kyc',
      summary: 'My papers',
      auth: [],
      response: { description: 'Newest first.', schema: z.object({ papers: z.array(PaperSchema) }) },
      handler: async ({ auth }) => ({ papers: await kyc.myPapers(auth!.userId) }),
    }),
    defineRoute({
      method: 'get',
      path: '/kyc/papers/:id/file',
      operationId: 'downloadPaper',
      tag: 'kyc',
      summary: 'Download a paper (owner or administrator)',
      description: 'Administrators need the kyc.read permission (403 otherwise); anyone else sees 404.',
      auth: [],
      errors: [403, 404],
      request: { params: IdParamsSchema },
      response: { description: 'The stored bytes.', schema: z.any(), binary: PAPER_CONTENT_TYPES },
      handler: async ({ params, auth, res }) => {
        const file = await kyc.paperFile(auth!, params.id);
        res.status(200).set({
          'content-type': file.contentType,
          'cache-control': 'private, no-store',
          'content-disposition': `inline; filename="${encodeURIComponent(file.filename)}"`,
        });
        res.end(file.data);
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/kyc/papers/:id',
      operationId: 'deletePaper',
      tag: 'kyc',
      summary: 'Delete one of my papers while its application is open',
      auth: [],
      errors: [404, 409],
      request: { params: IdParamsSchema },
      response: { description: 'Deleted.', schema: DeletedSchema },
      handler: ({ params, auth }) => kyc.deletePaper(auth!, params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/kyc/applications',
      operationId: 'listMyApplications',
      tag: 'kyc',
      summary: 'My driver and partner applications',
      auth: [],
      response: { description: 'Newest first, with papers and what is missing.', schema: z.object({ applications: z.array(ApplicationSchema) }) },
      handler: async ({ auth }) => ({ applications: await kyc.myApplications(auth!.userId) }),
    }),
    defineRoute({
      method: 'post',
      path: '/kyc/applications/:id/resubmit',
      operationId: 'resubmitApplication',
      tag: 'kyc',
      summary: 'Resubmit an application an administrator sent back (NEEDS_INFO → SUBMITTED)',
      auth: [],
      errors: [404, 409],
      request: { params: IdParamsSchema },
      response: { description: 'The application.', schema: ApplicationSchema },
      handler: ({ params, auth }) => kyc.resubmit(auth!.userId, params.id),
    }),
  ];
}
