import { AppError } from '../../src/platform/errors/app-error';
import { defineMachine } from '../../src/platform/state-machine/state-machine';

const door = defineMachine({
  entity: 'door',
  states: ['OPEN', 'CLOSED', 'LOCKED'] as const,
  moves: {
    close: { from: 'OPEN', to: 'CLOSED', by: ['guest', 'owner'] },
    open: { from: 'CLOSED', to: 'OPEN', by: ['guest', 'owner'] },
    lock: { from: ['OPEN', 'CLOSED'], to: 'LOCKED', by: 'owner' },
    unlock: { from: 'LOCKED', to: 'CLOSED', by: 'owner' },
  },
  codes: { transition: 'CALL_TRANSITION', actor: 'CALL_NOT_ALLOWED' },
});

const errorOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('expected a throw');
};

describe('platform/state-machine', () => {
  it('moves by the table: several from-states, role lists', () => {
    expect(door.check('lock', 'OPEN', ['owner'])).toBe('LOCKED');
    expect(door.check('lock', 'CLOSED', ['owner'])).toBe('LOCKED');
    expect(door.check('close', 'OPEN', ['guest'])).toBe('CLOSED');
    expect(door.target('unlock')).toBe('CLOSED');
  });

  it('refuses an actor without the role with the actor code, before looking at the status', () => {
    const err = errorOf(() => door.check('lock', 'LOCKED', ['guest']));
    expect([err.statusCode, err.code]).toEqual([409, 'CALL_NOT_ALLOWED']);
  });

  it('refuses a move from a wrong status with the transition code and the actions that remain', () => {
    const err = errorOf(() => door.check('open', 'LOCKED', ['owner']));
    expect([err.statusCode, err.code]).toEqual([409, 'CALL_TRANSITION']);
    expect(err.details).toEqual({ status: 'LOCKED', allowed: ['unlock'] });
  });

  it('lists the actions an actor may take', () => {
    expect(door.allowed('OPEN', ['guest'])).toEqual(['close']);
    expect(door.allowed('OPEN', ['owner'])).toEqual(['close', 'lock']);
    expect(door.allowed('LOCKED', ['guest'])).toEqual([]);
    expect(door.can('unlock', 'LOCKED', ['owner'])).toBe(true);
  });

  it('rejects a table naming an unknown status at definition time', () => {
    expect(() =>
      defineMachine({ entity: 'x', states: ['A'] as const, moves: { go: { from: 'A', to: 'B' as 'A', by: 'r' } }, codes: { transition: 'CONFLICT', actor: 'CONFLICT' } }),
    ).toThrow(/unknown status B/);
  });
});
