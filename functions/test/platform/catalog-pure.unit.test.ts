import { z } from 'zod';
import { pharmacy } from '../../src/modules/pharmacy/pharmacy.catalog';
import { places } from '../../src/modules/places/places.catalog';
import { catalogItemSchemas } from '../../src/platform/kits/catalog/catalog.items.routes';
import { defineCatalog, defineCatalogItems } from '../../src/platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../src/platform/kits/catalog/catalog.vertical';
import { isOpenAt, OpeningHoursSchema } from '../../src/platform/kits/catalog/hours';
import { foldText, matchesSearch, searchTermsOf } from '../../src/platform/kits/text/text';

// Times are UTC instants; Asia/Ho_Chi_Minh is UTC+7 (no DST). 2026-11-23 is a Monday.
const vn = (isoLocal: string) => Date.parse(`${isoLocal}+07:00`);
const hours = (weekly: Array<{ day: string; open: string; close: string }>, extra: Record<string, unknown> = {}) =>
  OpeningHoursSchema.parse({ weekly, ...extra });

describe('opening hours', () => {
  it('a day slot is open from open (inclusive) to close (exclusive), in the place’s time zone', () => {
    const h = hours([{ day: 'MON', open: '08:00', close: '17:30' }]);
    expect(isOpenAt(h, vn('2026-11-23T08:00:00'))).toBe(true);
    expect(isOpenAt(h, vn('2026-11-23T07:59:00'))).toBe(false);
    expect(isOpenAt(h, vn('2026-11-23T17:30:00'))).toBe(false);
    expect(isOpenAt(h, vn('2026-11-24T09:00:00'))).toBe(false); // Tuesday
    // 02:00 UTC Monday is 09:00 in Hồ Chí Minh City: open, though it is 21:00 Sunday in New York.
    expect(isOpenAt(h, Date.parse('2026-11-23T02:00:00Z'))).toBe(true);
  });

  it('a slot closing after midnight belongs to the day it opened', () => {
    const bar = hours([{ day: 'SAT', open: '18:00', close: '02:00' }]);
    expect(isOpenAt(bar, vn('2026-11-28T23:00:00'))).toBe(true); // Saturday night
    expect(isOpenAt(bar, vn('2026-11-29T01:59:00'))).toBe(true); // Sunday, before 02:00
    expect(isOpenAt(bar, vn('2026-11-29T02:00:00'))).toBe(false);
    expect(isOpenAt(bar, vn('2026-11-28T01:00:00'))).toBe(false); // Saturday early: Friday had no slot
    const sundayToMonday = hours([{ day: 'SUN', open: '20:00', close: '01:00' }]);
    expect(isOpenAt(sundayToMonday, vn('2026-11-23T00:30:00'))).toBe(true); // wraps the week
  });

  it('other time zones, open24h, and unknown hours', () => {
    const tokyo = hours([{ day: 'MON', open: '09:00', close: '10:00' }], { timeZone: 'Asia/Tokyo' });
    expect(isOpenAt(tokyo, Date.parse('2026-11-23T00:30:00Z'))).toBe(true); // 09:30 in Tokyo
    expect(isOpenAt(tokyo, vn('2026-11-23T09:30:00'))).toBe(false); // 11:30 in Tokyo
    expect(isOpenAt(hours([], { open24h: true }), Date.now())).toBe(true);
    expect(isOpenAt(hours([]), Date.now())).toBeNull();
    expect(isOpenAt(null, Date.now())).toBeNull();
    expect(OpeningHoursSchema.safeParse({ timeZone: 'Nowhere/City' }).success).toBe(false);
    expect(OpeningHoursSchema.safeParse({ weekly: [{ day: 'MON', open: '24:00', close: '01:00' }] }).success).toBe(false);
  });
});

describe('search text', () => {
  it('folds case and Vietnamese diacritics (đ included)', () => {
    expect(foldText('Phở Đường Phố')).toBe('pho duong pho');
    expect(foldText('BÚN CHẢ Hương Liên')).toBe('bun cha huong lien');
  });

  it('stores 2..15-character prefixes of each word and matches every query word at a word start', () => {
    const terms = searchTermsOf('Nhà thuốc Long Châu');
    expect(terms).toEqual(expect.arrayContaining(['nh', 'nha', 'th', 'thuoc', 'lo', 'long', 'ch', 'chau']));
    expect(terms).not.toContain('n');
    expect(searchTermsOf('Supercalifragilisticexpialidocious').every((t) => t.length <= 15)).toBe(true);
    expect(matchesSearch('Nhà thuốc Long Châu', 'thuoc chau')).toBe(true);
    expect(matchesSearch('Nhà thuốc Long Châu', 'LONG châu nhà')).toBe(true);
    expect(matchesSearch('Nhà thuốc Long Châu', 'huoc')).toBe(false);
    expect(searchTermsOf('A 7-Eleven')).toEqual(expect.arrayContaining(['a', '7', 'el', 'eleven']));
  });
});

// A catalog declaring child items without stock (a clinic's doctors): what a next vertical writes.
const doctors = defineCatalogItems({
  collection: 'unit_clinic_doctors',
  segment: 'doctors',
  parentField: 'clinicId',
  keyField: 'doctorId',
  noun: 'doctor',
  nouns: 'doctors',
  parentNoun: 'clinic',
  parentNouns: 'clinics',
  schemaName: 'UnitClinicDoctor',
  pluralName: 'UnitClinicDoctors',
  body: z.object({ name: z.string().min(2), specialty: z.string().min(2) }),
  view: z.object({ name: z.string(), specialty: z.string() }),
});
const clinicSpec = defineCatalog({
  tag: 'places',
  collection: 'unit_clinics',
  basePath: '/unit-clinics',
  noun: 'clinic',
  nouns: 'clinics',
  schemaName: 'UnitClinic',
  pluralName: 'UnitClinics',
  details: z.object({ beds: z.number().int().optional() }),
  maxRadiusM: 5_000,
  filters: z.object({}),
  items: doctors,
});
const unusedDeps = () => ({ partnerRole: async () => undefined, photo: async () => undefined });
const ctx = { config: { NEARBY_READ_BUDGET: 100 } } as Parameters<ReturnType<typeof defineCatalogVertical>['routes']>[0];
const operations = (routes: ReadonlyArray<{ method: string; path: string; operationId: string }>) =>
  routes.map((r) => `${r.method} ${r.path} ${r.operationId}`);

describe('catalog definition with child items', () => {
  it('a declaration of items gives their list, put and remove under the record, after the kit’s eleven operations', () => {
    const clinics = defineCatalogVertical(clinicSpec, { deps: unusedDeps });
    const ops = operations(clinics.routes(ctx));
    expect(ops).toHaveLength(14);
    expect(ops.slice(11)).toEqual([
      'get /unit-clinics/:id/doctors listUnitClinicDoctors',
      'put /unit-clinics/:id/doctors/:doctorId setUnitClinicDoctor',
      'delete /unit-clinics/:id/doctors/:doctorId removeUnitClinicDoctor',
    ]);
    expect(ops.some((o) => o.includes('searchUnitClinicDoctors'))).toBe(false); // no nearbySearch declared
    const s = catalogItemSchemas(clinicSpec, doctors);
    expect(Object.keys(s.listQuery.shape)).not.toContain('inStock'); // no stock declared
    expect(Object.keys(s.view.shape)).toEqual(['clinicId', 'doctorId', 'name', 'specialty', 'updatedAt']);
    expect(s.params.safeParse({ id: 'c1', doctorId: 'dr-lan.2' }).success).toBe(true);
    expect(s.params.safeParse({ id: 'c1', doctorId: 'dr lan!' }).success).toBe(false);
    expect(catalogItemSchemas(clinicSpec, doctors)).toBe(s); // one object per spec: OpenAPI names each once
  });

  it('pharmacy’s products are a declaration: the search first, the eleven store operations, then the products', () => {
    const ops = operations(pharmacy.routes(ctx));
    expect(ops).toHaveLength(15);
    expect(ops[0]).toBe('get /pharmacy/products/search searchPharmacyProducts');
    expect(ops.slice(12)).toEqual([
      'get /pharmacy/stores/:id/products listPharmacyProducts',
      'put /pharmacy/stores/:id/products/:sku setPharmacyProduct',
      'delete /pharmacy/stores/:id/products/:sku removePharmacyProduct',
    ]);
    const s = catalogItemSchemas(pharmacy.spec, pharmacy.spec.items);
    expect(Object.keys(s.listQuery.shape)).toContain('inStock');
    expect(s.body.parse({ name: 'Panadol', priceVnd: 0, stock: 0 })).toEqual({
      name: 'Panadol',
      priceVnd: 0,
      stock: 0,
      unit: 'hộp',
      requiresPrescription: false,
    });
  });

  it('a vertical’s own routes keep their place (literal paths before /:id), and a catalog without items has no items service', () => {
    const ops = operations(places.routes(ctx));
    expect(ops[0]).toBe('get /places/categories listPlaceCategories');
    expect(ops).toHaveLength(12);
    expect(() => places.items()).toThrow('declares no child items');
  });
});
