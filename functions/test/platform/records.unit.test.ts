import { recordConverter } from '../../src/platform/kits/firestore/records';

interface Thing {
  id: string;
  name: string;
  count: number;
}

describe('platform/kits/firestore records', () => {
  const converter = recordConverter<Thing>();

  it('stores a record without its id field', () => {
    expect(converter.toFirestore({ id: 'abc', name: 'x', count: 2 })).toEqual({ name: 'x', count: 2 });
  });

  it('reads a document as the record with its id', () => {
    const snap = { id: 'abc', data: () => ({ name: 'x', count: 2 }) } as unknown as FirebaseFirestore.QueryDocumentSnapshot;
    expect(converter.fromFirestore(snap)).toEqual({ id: 'abc', name: 'x', count: 2 });
  });

  it('the document id wins over a stored id field', () => {
    const snap = { id: 'real', data: () => ({ id: 'stale', name: 'x', count: 0 }) } as unknown as FirebaseFirestore.QueryDocumentSnapshot;
    expect(converter.fromFirestore(snap).id).toBe('real');
  });
});
