import type { DocumentData, FirestoreDataConverter, QueryDocumentSnapshot } from 'firebase-admin/firestore';
import { documentConverter, type LazySchema } from '../../kits/firestore/documents';
import { recordConverter, type Identified } from '../../kits/firestore/records';
import { logger } from '../logging/logger';
import type { DocumentEvent } from './module';
import { UnconvertibleTimeError } from '../../kits/firestore/documents';

// Typed triggers: a handler receives each side of the change as its collection's record (with its id), read by the
// converter the collection's repo reads with, never the raw data cast by hand. A document that converter refuses is
// logged and skipped, not thrown: a redelivery would meet the same document, so a throw would only loop until the
// event expires. A failure of the handler itself is thrown as before (the platform retries it; handlers are
// idempotent by the event id).

/** How a trigger reads its collection: the repo's converter (only `fromFirestore` is used). */
export type RecordReader<T> = Pick<FirestoreDataConverter<T>, 'fromFirestore'>;

/** A document change as a handler reads it: each side its record with its id, undefined where there is none. */
export interface RecordChange<T> {
  /** Unique per event; repeated on a redelivery: derive idempotency ids from it. */
  id: string;
  /** ISO time of the change. */
  time: string;
  params: Record<string, string>;
  before: T | undefined;
  after: T | undefined;
}

/** What a typed trigger answers for an event whose document its converter refused. */
export const SKIPPED = 'skipped';
export type Skipped = typeof SKIPPED;

/**
 * The converter `typedCollection(name, schema?)` reads the collection with: times converted by the schema's paths
 * (listened documents), the document id as `id`. No stricter than a repo's read: a document written before a field
 * existed triggers as it reads.
 */
export function collectionRecords<T extends Identified>(schema?: LazySchema): RecordReader<T> {
  return schema ? documentConverter<T>(schema, { id: true }) : recordConverter<T>();
}

class UnreadableDocument extends Error {
  constructor(
    readonly side: 'before' | 'after',
    readonly documentId: string,
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

function readSide<T>(reader: RecordReader<T>, which: 'before' | 'after', side: DocumentEvent['before']): T | undefined {
  if (!side) return undefined;
  // The converter's side of a snapshot: the event carries the id and data the Firestore snapshot had.
  const snapshot = { id: side.id, data: (): DocumentData => side.data } as QueryDocumentSnapshot;
  try {
    return reader.fromFirestore(snapshot);
  } catch (err) {
    // Only bad data is skipped (a redelivery would fail the same way); a code or load error is rethrown: retried.
    if (isDataError(err)) throw new UnreadableDocument(which, side.id, err);
    throw err;
  }
}

/** What a converter throws for a document it cannot read: a time no Timestamp holds, or a schema refusing the data. */
function isDataError(err: unknown): boolean {
  return err instanceof UnconvertibleTimeError || (err instanceof Error && (err.name === 'ZodError' || err.name === '$ZodError'));
}

/** The change with both sides read as records; undefined (logged) when the converter refused one. */
export function readChange<T>(reader: RecordReader<T>, event: DocumentEvent): RecordChange<T> | undefined {
  try {
    return {
      id: event.id,
      time: event.time,
      params: event.params,
      before: readSide(reader, 'before', event.before),
      after: readSide(reader, 'after', event.after),
    };
  } catch (err) {
    if (!(err instanceof UnreadableDocument)) throw err;
    logger.error('trigger skipped a document its collection cannot read; a redelivery would fail the same way', {
      eventId: event.id,
      documentId: err.documentId,
      side: err.side,
      params: event.params,
      reason: err.message,
    });
    return undefined;
  }
}

/**
 * A trigger's work over records: `handle` gets the change read by `reader`, then whatever the caller passes after
 * the event (the configuration, and dependencies tests replace). The result is the handler's, or SKIPPED.
 */
export function typedTrigger<T, A extends unknown[], R>(
  reader: RecordReader<T>,
  handle: (change: RecordChange<T>, ...rest: A) => Promise<R>,
): (event: DocumentEvent, ...rest: A) => Promise<R | Skipped> {
  return async (event, ...rest) => {
    const change = readChange(reader, event);
    return change ? handle(change, ...rest) : SKIPPED;
  };
}
