import { GEO_COMMANDS } from '../../src/platform/kits/geo/geo.commands';
import { Timestamp } from 'firebase-admin/firestore';
import { MODULES } from '../../src/modules';
import { API_TAGS } from '../../src/modules';
import { defineModule, defineModules } from '../../src/platform/core/module/module';
import { apiTagTable, PLANNED_TAGS } from '../../src/platform/core/openapi/tags';
import {
  commandList,
  findCommand,
  PLATFORM_COMMANDS,
  runCommand,
  runSeeds,
  seedOrder,
  type CommandContext,
  type SeedContext,
} from '../../src/platform/core/module/maintenance';

// What modules declare besides their routes: seeds and maintenance commands (scripts/seed.mjs and
// `node scripts/stack.mjs module …` run them from the module list; neither imports a module's files), and API tags.

const seedOf = (name: string, after?: string[]) => ({ name, uses: [], seed: { after, load: () => async () => undefined } });

describe('module seeds', () => {
  it('run in module order, the wallet (a transfer of the top-up) after payments', () => {
    const order = seedOrder(MODULES).map((m) => m.name);
    expect(order).toEqual([
      'users',
      'driver',
      'partners',
      'chat',
      'payments',
      'wallet',
      'places',
      'pharmacy',
      'parking',
      'fuel',
      'atm',
      'merchants',
      'promotions',
      'hotels',
      'rentals',
      'medical',
      'schools',
      'homeservices',
      'social',
      'cms',
      'support',
    ]);
    for (const m of MODULES) if (m.seed) expect(typeof m.seed.load()).toBe('function');
  });

  it('a seed that waits moves behind the seeds it waits for; an unknown or cyclic wait is refused', () => {
    expect(seedOrder([seedOf('a', ['c']), seedOf('b'), seedOf('c')]).map((m) => m.name)).toEqual(['c', 'a', 'b']);
    expect(() => seedOrder([seedOf('a', ['z'])])).toThrow('its seed waits for z, which has no seed in the module list');
    expect(() => seedOrder([seedOf('a', ['b']), seedOf('b', ['a'])])).toThrow('seeds wait for each other in a cycle: a → b → a');
  });

  it('the document seeds (accounts, drivers, partner, conversation) write what the API stores', async () => {
    const written: Record<string, Record<string, Record<string, unknown>>> = {};
    const account = (id: string) => ({ id, email: `${id}@superapp.local`, name: id, password: 'p' });
    const ctx: SeedContext = {
      now: Date.parse('2026-01-01T00:00:00Z'),
      fixtures: {
        DEV_ADMIN: account('admin'),
        DEMO_USERS: [account('lan'), account('minh')],
        DEMO_DRIVER_PASSWORD: 'd',
        DEMO_DRIVERS: [{ ...account('driver'), lat: 10.78, lng: 106.7, vehicle: { type: 'CAR', plate: '51A-1', model: 'Vios', color: 'white', seats: 4 } }],
        DEMO_PARTNER: { ...account('partner'), userId: 'owner' },
      },
      write: async (collection, docs) => void (written[collection] = { ...written[collection], ...docs }),
      log: () => undefined,
    };
    await runSeeds(
      MODULES.filter((m) => ['users', 'driver', 'partners', 'chat'].includes(m.name)),
      ctx,
    );
    expect(Object.keys(written.users)).toEqual(['admin', 'lan', 'minh', 'driver', 'owner']);
    expect(written.users.owner).toMatchObject({ roles: ['USER', 'PARTNER_OWNER'], emailVerified: true });
    expect(written.user_emails['driver@superapp.local']).toEqual({ userId: 'driver', createdAt: ctx.now });
    expect(written.partner_members).toEqual({ partner_owner: expect.objectContaining({ role: 'OWNER', addedBy: 'admin' }) });
    expect(written.driver_locations.driver).toMatchObject({ status: 'ONLINE', rideClass: 'CAR', dispatchKey: 'CAR', locatedAt: expect.any(Timestamp) });
    // Three messages, already counted: Minh has Lan's last one unread (he answered the first), Lan none.
    const memberships = Object.values(written.chat_memberships);
    expect(memberships.map((m) => [m.userId, m.unreadCount])).toEqual([
      ['lan', 0],
      ['minh', 1],
    ]);
    const messages = Object.keys(written).find((c) => c.endsWith('/messages'))!;
    expect(Object.keys(written[messages])).toEqual(['seed-msg-1', 'seed-msg-2', 'seed-msg-3']);
  });
});

describe('maintenance commands', () => {
  const ctx: CommandContext = { log: () => undefined, listened: [], collections: [] };

  it('are listed as <module>:<command>, the platform and its kits first', () => {
    expect(commandList([PLATFORM_COMMANDS, GEO_COMMANDS, ...MODULES]).map((c) => c.name)).toEqual([
      'platform:migrate-listened-times',
      'geo:index-nearby-cells',
      'driver:backfill-capabilities',
      'driver:drop-retired-cooldowns',
      'rides:migrate-ratings',
      'wallet:ledger-check',
      'social:backfill-follower-sets',
    ]);
    for (const m of [GEO_COMMANDS, ...MODULES]) for (const command of Object.values(m.commands ?? {})) expect(typeof command.load()).toBe('function');
  });

  it('an unknown name is refused with the list; a command resolves to its exit status, 1 when it throws', async () => {
    const owners = [{ name: 'm', commands: { ok: { describe: 'ok', load: () => async () => undefined }, no: { describe: 'no', load: () => async () => 3 } } }];
    expect(() => findCommand(owners, 'm:gone')).toThrow('no command m:gone; the commands are:\n  m:ok: ok\n  m:no: no');
    expect(() => findCommand(owners, 'm:toString')).toThrow('no command m:toString');
    expect(() => findCommand(owners, 'm')).toThrow('no command m;');
    expect(await runCommand(owners, 'm:ok', ctx)).toBe(0);
    expect(await runCommand(owners, 'm:no', ctx)).toBe(3);
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = [{ name: 'm', commands: { bad: { describe: 'bad', load: () => async () => Promise.reject(new Error('boom')) } } }];
    expect(await runCommand(failing, 'm:bad', ctx)).toBe(1);
    expect(error).toHaveBeenCalledWith('[superapp] ERROR: boom');
    error.mockRestore();
  });

  it('a command name must be kebab-case', () => {
    const command = { describe: 'x', load: () => async () => undefined };
    expect(() => defineModule({ name: 'm', uses: [], commands: { migrateAll: command } })).toThrow('module m: command migrateAll is not kebab-case');
    expect(defineModule({ name: 'm', uses: [], commands: { 'migrate-all': command } }).commands).toBeDefined();
  });
});

describe('API tags', () => {
  it("are the modules' (each its own name; admin serves the users tag, status the health tag, delivery the orders tag, the booking engine the booking verticals', home services the places tag): every tag of the spec is served, none planned", () => {
    const ofModules = MODULES.flatMap((m) => Object.keys(m.apiTags ?? {}));
    expect(MODULES.filter((m) => !m.apiTags).map((m) => m.name)).toEqual(['admin', 'status', 'delivery', 'bookings', 'homeservices']);
    expect(ofModules).toEqual(MODULES.filter((m) => m.apiTags).map((m) => m.name));
    expect(PLANNED_TAGS).toEqual({});
    expect(Object.keys(API_TAGS)).toEqual([...ofModules].sort());
    expect(Object.keys(API_TAGS)).toHaveLength(33);
    expect(API_TAGS.wallet).toBe('Wallet balance, top-ups, transfers and history.');
  });

  it('a tag is claimed by one module, and one still planned is refused until its row leaves the planned list', () => {
    const a = defineModule({ name: 'a', uses: [], apiTags: { zeta: 'Z.', alpha: 'A.' } });
    expect(() => defineModules([a, defineModule({ name: 'b', uses: [], apiTags: { zeta: 'Z again.' } })])).toThrow(
      'apiTags: zeta is claimed by modules a and b',
    );
    // A tag a later spec adds waits in the planned list until a module serves it.
    const planned = PLANNED_TAGS as Record<string, string>;
    planned.kiosks = 'Kiosks.';
    try {
      expect(Object.keys(apiTagTable([a]))).toEqual(['alpha', 'kiosks', 'zeta']);
      expect(() => defineModules([defineModule({ name: 'kiosks', uses: [], apiTags: { kiosks: 'K.' } })])).toThrow(
        'apiTags: kiosks of module kiosks is still listed as planned (platform/core/openapi/tags.ts)',
      );
    } finally {
      delete planned.kiosks;
    }
  });
});
