import { AppError } from '../errors/app-error';
import { isDocumentId } from '../http/document-id';

/**
 * A module's records as their owner reads them through its own API (GET /rides, GET /rides/{id}…), offered to other
 * modules that act for a user: a support ticket's link, the assistant's tools. Someone else's record reads as
 * absent, exactly as the owner's API answers it (404), so a caller cannot tell it exists.
 */
export interface OwnRecords<V> {
  /** The owner's newest records, at most `limit`. */
  recent(userId: string, limit: number): Promise<V[]>;
  /** One of the owner's records; undefined when there is none or it is not theirs. */
  get(userId: string, id: string): Promise<V | undefined>;
}

/**
 * One record by an id from outside (a ticket's body, a model's tool call): an id Firestore would refuse reads as
 * absent, as does a 404 ("not yours or not there"); any other failure passes.
 */
export async function ownRecord<V>(id: string, read: () => Promise<V>): Promise<V | undefined> {
  if (!isDocumentId(id)) return undefined;
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 404) return undefined;
    throw err;
  }
}
