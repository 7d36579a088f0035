import { EVENTS, recordNote } from '../../src/platform/kits/state-machine/state-machine';

// A fake transaction and document: what recordNote writes, and where.
function fakes() {
  const created: Array<{ path: string; data: Record<string, unknown> }> = [];
  const tx = {
    create: (ref: { path: string }, data: Record<string, unknown>) => created.push({ path: ref.path, data }),
  } as unknown as FirebaseFirestore.Transaction;
  let n = 0;
  const entity = {
    collection: (name: string) => ({ doc: () => ({ path: `payments/P1/${name}/e${++n}` }) }),
  } as unknown as FirebaseFirestore.DocumentReference;
  return { tx, entity, created };
}

describe('recordNote (an action that moves no status)', () => {
  it('appends one event line with from = to under the entity', () => {
    const { tx, entity, created } = fakes();
    recordNote(tx, entity, { action: 'reverseRefund', status: 'COMPLETED', by: 'admin-1', at: 1_700_000_000_000, reason: 'R1' });
    expect(created).toEqual([
      {
        path: `payments/P1/${EVENTS}/e1`,
        data: { action: 'reverseRefund', from: 'COMPLETED', to: 'COMPLETED', by: 'admin-1', at: 1_700_000_000_000, reason: 'R1' },
      },
    ]);
  });

  it('keeps no reason when none is given', () => {
    const { tx, entity, created } = fakes();
    recordNote(tx, entity, { action: 'note', status: 'OPEN', by: 'system:x', at: 1 });
    expect(created[0].data).not.toHaveProperty('reason');
  });
});
