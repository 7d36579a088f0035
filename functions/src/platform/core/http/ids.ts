import { z } from 'zod';
import { isWellFormedText } from '../../kits/text/text';

// Firestore's rules for a document id: 1–1,500 bytes of UTF-8, no "/", not "." or "..", not __…__.
// Anything else reaches Firestore as INVALID_ARGUMENT (a 500); checked at the edge instead.
const MAX_ID_BYTES = 1500;

export function isDocumentId(value: string): boolean {
  if (value.length === 0 || value === '.' || value === '..' || value.includes('/') || /^__.*__$/s.test(value)) return false;
  return isWellFormedText(value) && Buffer.byteLength(value, 'utf8') <= MAX_ID_BYTES;
}

const DOCUMENT_ID_RULE = 'must be a valid id (1 to 1,500 bytes, no "/", not "." or "..", not __…__)';

/** Any field or path parameter that names a document. A path id that fails answers 404; a body or query field 400. */
export const DocumentIdSchema = z.string().min(1).refine(isDocumentId, { message: DOCUMENT_ID_RULE });

/** Path parameters `{ id }`. */
export const IdParamsSchema = z.object({ id: DocumentIdSchema });

export const DeletedSchema = z.object({ deleted: z.literal(true) }).meta({ id: 'Deleted' });
