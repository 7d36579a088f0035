import { z } from 'zod';
import { isDocumentId } from './document-id';

export { isDocumentId };

const DOCUMENT_ID_RULE = 'must be a valid id (1 to 1,500 bytes, no "/", not "." or "..", not __…__)';

/** Any field or path parameter that names a document. A path id that fails answers 404; a body or query field 400. */
export const DocumentIdSchema = z.string().min(1).refine(isDocumentId, { message: DOCUMENT_ID_RULE });

/** Path parameters `{ id }`. */
export const IdParamsSchema = z.object({ id: DocumentIdSchema });

export const DeletedSchema = z.object({ deleted: z.literal(true) }).meta({ id: 'Deleted' });
