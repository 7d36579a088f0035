import fs from 'node:fs';
import path from 'node:path';
import { COLLECTIONS, MODULES, REGISTRY } from '../../src/modules';
import { CONTEXT_TYPES } from '../../src/modules/chat';
import { targetTypes } from '../../src/modules/favorites';
import { PAYMENT_PURPOSES } from '../../src/modules/payments';
import { PROMOTION_VERTICALS } from '../../src/modules/promotions';
import { ADMIN_PERMISSIONS } from '../../src/platform/core/auth/roles';
import { defineErrorCodes, ERROR_CODES, PLATFORM_ERROR_CODES, type ErrorCode } from '../../src/platform/core/errors/codes';
import { defineModule, defineModules, renderModuleLists, renderModuleSwitches, type ModuleDefinition } from '../../src/platform/core/module/module';
import { groupTriggers } from '../../src/platform/core/module/trigger-groups';

// The module list against the files Firebase needs as single files: firestore.rules (default deny, a block
// only for collections clients reach) and firestore.indexes.json (a TTL policy for every TTL field).
const root = path.join(__dirname, '..', '..', '..');
const rules = fs.readFileSync(path.join(root, 'firestore.rules'), 'utf8');
const indexes = JSON.parse(fs.readFileSync(path.join(root, 'firestore.indexes.json'), 'utf8')) as {
  indexes: Array<{ collectionGroup: string }>;
  fieldOverrides: Array<{ collectionGroup: string; fieldPath: string; ttl?: boolean }>;
};
// Top-level `match /<collection>/…` blocks of the rules (the catch-all aside).
const ruleBlocks = [...rules.matchAll(/^ {4}match \/([a-z_]+)\//gm)].map((m) => m[1]);

describe('module definitions', () => {
  it('names every collection once, each with one owner', () => {
    const names = COLLECTIONS.map((c) => `${c.parent ? `${c.parent}/` : ''}${c.name}`);
    expect(new Set(names).size).toBe(names.length);
    expect(COLLECTIONS.length).toBeGreaterThan(25);
  });

  it('rules deny everything not matched, and open a block only for collections declared clientAccess', () => {
    expect(rules).toMatch(/match \/\{document=\*\*\} \{\s*allow read, write: if false;\s*\}/);
    const clientCollections = COLLECTIONS.filter((c) => c.clientAccess && !c.parent)
      .map((c) => c.name)
      .sort();
    expect([...new Set(ruleBlocks)].sort()).toEqual(clientCollections);
  });

  it('every TTL field has a TTL policy, and every TTL policy belongs to a declared collection', () => {
    const declared = COLLECTIONS.filter((c) => c.ttlField)
      .map((c) => `${c.name}.${c.ttlField}`)
      .sort();
    const policies = indexes.fieldOverrides
      .filter((f) => f.ttl)
      .map((f) => `${f.collectionGroup}.${f.fieldPath}`)
      .sort();
    expect(policies).toEqual(declared);
  });

  it('composite indexes are on declared collections only', () => {
    const names = new Set(COLLECTIONS.map((c) => c.name));
    for (const index of indexes.indexes) expect([index.collectionGroup, names.has(index.collectionGroup)]).toEqual([index.collectionGroup, true]);
  });

  it('task and trigger function names are unique across modules, and each task consumes its own queue', () => {
    const handlers = MODULES.flatMap((m) => Object.keys(m.triggers ?? {}));
    expect(new Set(handlers).size).toBe(handlers.length);
    const functions = ['api', 'deliverMessage', ...MODULES.flatMap((m) => Object.keys(m.tasks ?? {})), ...groupTriggers(MODULES).map((g) => g.name)];
    expect(new Set(functions).size).toBe(functions.length);
    for (const m of MODULES) for (const [name, task] of Object.entries(m.tasks ?? {})) expect(task.queue.name).toBe(name);
    expect(functions).toEqual(expect.arrayContaining(['callRingTimeout', 'broadcastJob', 'callStatusChanged', 'usersChanged']));
  });

  it('trigger documents name a declared collection', () => {
    const names = new Set(COLLECTIONS.map((c) => c.name));
    for (const m of MODULES) for (const trigger of Object.values(m.triggers ?? {})) expect(names.has(trigger.document.split('/')[0])).toBe(true);
  });
});

describe('central lists derived from the module list', () => {
  // Permissions of the platform kits (the catalog's managers, the moderation queues), not of a module.
  const KIT_PERMISSIONS = ['catalog.manage', 'moderation'];

  it("the API's error codes are the platform's, then each module's own, each with one owner", () => {
    const moduleCodes = MODULES.flatMap((m) => Object.keys(m.errorCodes ?? {}));
    expect(Object.keys(ERROR_CODES)).toEqual([...Object.keys(PLATFORM_ERROR_CODES), ...moduleCodes]);
    expect(REGISTRY.errorCodes).toEqual(moduleCodes);
    for (const m of MODULES)
      for (const [code, entry] of Object.entries(m.errorCodes ?? {})) expect([code, ERROR_CODES[code as ErrorCode]]).toEqual([code, entry]);
    expect([
      REGISTRY.ownerOf('errorCodes', 'RIDE_TRANSITION'),
      REGISTRY.ownerOf('errorCodes', 'CHAT_BLOCKED'),
      REGISTRY.ownerOf('errorCodes', 'TIP_LIMIT'),
    ]).toEqual(['rides', 'chat', 'payments']);
    expect(REGISTRY.ownerOf('errorCodes', 'NOT_FOUND')).toBeUndefined();
  });

  it("save and review targets are the catalog modules' own, in module order", () => {
    expect(targetTypes()).toEqual([
      'PLACE',
      'PHARMACY_STORE',
      'PARKING_LOT',
      'FUEL_STATION',
      'ATM',
      'MERCHANT',
      'HOTEL',
      'RENTAL_LISTING',
      'MEDICAL_CLINIC',
      'SCHOOL',
      'HOME_SERVICE_PROVIDER',
    ]);
    expect(['places', 'pharmacy', 'parking', 'fuel', 'atm', 'merchants'].map((m, i) => REGISTRY.ownerOf('targets', targetTypes()[i]) === m)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(REGISTRY.target('PLACE')?.type).toBe('PLACE');
    expect(REGISTRY.target('SCHOOL')?.type).toBe('SCHOOL');
    expect(REGISTRY.target('HOME_SERVICE')).toBeUndefined(); // the provider is the target, not a service
  });

  it("module-lists.generated.ts is the module list's (UPDATE_MODULE_LISTS=1 rewrites it)", () => {
    const file = path.join(__dirname, '..', '..', 'src', 'platform', 'core', 'module', 'module-lists.generated.ts');
    if (process.env.UPDATE_MODULE_LISTS === '1') fs.writeFileSync(file, renderModuleLists(REGISTRY));
    expect(fs.readFileSync(file, 'utf8')).toBe(renderModuleLists(REGISTRY));
  });

  it("module-switches.generated.ts is the module list's switch fragments, each the definition's own (UPDATE_MODULE_LISTS=1 rewrites it)", () => {
    const file = path.join(__dirname, '..', '..', 'src', 'module-switches.generated.ts');
    if (process.env.UPDATE_MODULE_LISTS === '1') fs.writeFileSync(file, renderModuleSwitches(REGISTRY));
    expect(fs.readFileSync(file, 'utf8')).toBe(renderModuleSwitches(REGISTRY));
    const { MODULE_SWITCHES } = require('../../src/module-switches.generated') as typeof import('../../src/module-switches.generated');
    const declared = MODULES.flatMap((m) => (m.config ? [{ module: m.name, switches: m.config }] : []));
    expect(MODULE_SWITCHES.map((s) => s.module)).toEqual(declared.map((d) => d.module));
    for (const [i, entry] of MODULE_SWITCHES.entries()) expect(entry.switches).toBe(declared[i].switches);
    expect(REGISTRY.ownerOf('switches', 'RIDE_SEARCH_RADIUS_M')).toBe('rides');
    expect(REGISTRY.ownerOf('switches', 'NODE_ENV')).toBeUndefined();
  });

  it("the enumerations other modules own (chat contexts, payment purposes, promotion verticals, permissions) are the modules' claims", () => {
    expect([...REGISTRY.chatContexts].sort()).toEqual([...CONTEXT_TYPES].sort());
    expect([...REGISTRY.paymentPurposes].sort()).toEqual([...PAYMENT_PURPOSES].sort());
    expect([...REGISTRY.promotionVerticals].sort()).toEqual([...PROMOTION_VERTICALS].sort());
    expect([...REGISTRY.permissions, ...KIT_PERMISSIONS].sort()).toEqual([...ADMIN_PERMISSIONS].sort());
    expect(REGISTRY.ownerOf('chatContexts', 'RIDE')).toBe('rides');
    expect(REGISTRY.ownerOf('paymentPurposes', 'TOPUP')).toBe('payments');
    expect(REGISTRY.ownerOf('promotionVerticals', 'PHARMACY')).toBe('pharmacy');
    expect(REGISTRY.ownerOf('permissions', 'rides.manage')).toBe('rides');
  });

  describe('a new module', () => {
    const source = { activeByIds: async () => [], isManagedBy: async () => false, applyRating: async () => false };
    const shop = defineModule({
      name: 'shop',
      uses: ['payments', 'chat'],
      errorCodes: { ORDER_CLOSED: [409, 'The order is closed.'] },
      events: [{ pattern: 'order.shipped' }],
      targets: [{ type: 'SHOP', load: () => source }],
      chatContexts: ['SHOP'],
      paymentPurposes: ['SHOP'],
      promotionVerticals: ['SHOP'],
      permissions: ['shop.manage'],
    });
    const withShop = (m: ModuleDefinition) => defineModules([...MODULES, m]);

    it('adds its contributions to every derived list, owned by it', () => {
      const registry = withShop(shop);
      expect(registry.modules.at(-1)).toBe(shop);
      expect(registry.events).toContain('order.shipped');
      expect(registry.errorCodes.at(-1)).toBe('ORDER_CLOSED');
      expect(registry.targets.at(-1)).toBe('SHOP');
      expect(registry.target('SHOP')?.load()).toBe(source);
      expect([registry.chatContexts.at(-1), registry.paymentPurposes.at(-1), registry.promotionVerticals.at(-1), registry.permissions.at(-1)]).toEqual([
        'SHOP',
        'SHOP',
        'SHOP',
        'shop.manage',
      ]);
      for (const list of ['errorCodes', 'events', 'targets', 'chatContexts', 'paymentPurposes', 'promotionVerticals', 'permissions'] as const)
        expect(registry.ownerOf(list, registry[list].at(-1)!)).toBe('shop');
    });

    it.each([
      ['an error code', { errorCodes: { RIDE_TRANSITION: [409, 'Another meaning.'] } }, /errorCodes: RIDE_TRANSITION is claimed by modules rides and shop/],
      ['a platform error code', { errorCodes: { NOT_FOUND: [404, 'Not here.'] } }, /errorCodes: NOT_FOUND of module shop is a platform code/],
      ['an event', { events: [{ pattern: 'ride.matched' }] }, /events: ride.matched is claimed by modules rides and shop/],
      ['a target', { targets: [{ type: 'PLACE', load: () => source }] }, /targets: PLACE is claimed by modules places and shop/],
      ['a chat context', { chatContexts: ['RIDE'] }, /chatContexts: RIDE is claimed by modules rides and shop/],
      ['a payment purpose', { paymentPurposes: ['TOPUP'] }, /paymentPurposes: TOPUP is claimed by modules payments and shop/],
      ['a promotion vertical', { promotionVerticals: ['PARKING'] }, /promotionVerticals: PARKING is claimed by modules parking and shop/],
      ['a permission', { permissions: ['payments.manage'] }, /permissions: payments.manage is claimed by modules payments and shop/],
    ] as Array<[string, Partial<ModuleDefinition>, RegExp]>)('claiming %s another module owns is refused when the list is defined', (_what, claim, error) => {
      expect(() => withShop(defineModule({ name: 'shop', uses: [], ...claim }))).toThrow(error);
    });

    it('is refused with a taken name, an unknown or cyclic use, or an entry named twice in its own lists', () => {
      expect(() => withShop(defineModule({ name: 'rides', uses: [] }))).toThrow(/module rides is listed twice/);
      expect(() => withShop(defineModule({ name: 'shop', uses: ['shops'] }))).toThrow(/shop: uses shops, which is not in the module list/);
      expect(() => defineModule({ name: 'shop', uses: ['shop'] })).toThrow(/shop: uses itself/);
      const a = defineModule({ name: 'a', uses: ['b'] });
      const b = defineModule({ name: 'b', uses: ['a'] });
      expect(() => defineModules([a, b])).toThrow(/cycle: a → b → a/);
      expect(() => defineModule({ name: 'shop', uses: [], events: [{ pattern: 'order.shipped' }, { pattern: 'order.shipped' }] })).toThrow(
        /shop: events names order.shipped twice/,
      );
      expect(() => defineModule({ name: 'shop', uses: ['chat', 'chat'] })).toThrow(/shop: uses names chat twice/);
      expect(() => defineModule({ name: 'shop', uses: [], errorCodes: defineErrorCodes({ 'order-closed': [409, 'x'] }) })).toThrow(
        /error code order-closed: upper case/,
      );
    });
  });
});
