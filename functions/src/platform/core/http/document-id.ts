import { isWellFormedText } from '../../kits/text/text';

// Firestore's rules for a document id: 1–1,500 bytes of UTF-8, no "/", not "." or "..", not __…__.
// Anything else reaches Firestore as INVALID_ARGUMENT (a 500); checked at the edge instead.
const MAX_ID_BYTES = 1500;

export function isDocumentId(value: string): boolean {
  if (value.length === 0 || value === '.' || value === '..' || value.includes('/') || /^__.*__$/s.test(value)) return false;
  return isWellFormedText(value) && Buffer.byteLength(value, 'utf8') <= MAX_ID_BYTES;
}
