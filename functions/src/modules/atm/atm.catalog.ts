import { z } from 'zod';
import { defineCatalog } from '../../platform/kits/catalog/catalog.spec';
import { defineCatalogVertical } from '../../platform/kits/catalog/catalog.vertical';
import { defineRoute } from '../../platform/core/http/route';
import { partnerCatalogDeps } from '../partners';
import { BooleanQuerySchema } from '../../platform/core/http/query';
import { ATMS } from './atm.collections';

// ATMs on the map by bank, 24h and deposit, and the list of banks for the filter.

export { ATMS };

export const BANKS = {
  VCB: 'Vietcombank',
  BIDV: 'BIDV',
  CTG: 'VietinBank',
  AGR: 'Agribank',
  TCB: 'Techcombank',
  MB: 'MB Bank',
  ACB: 'ACB',
  VPB: 'VPBank',
  TPB: 'TPBank',
  STB: 'Sacombank',
  VIB: 'VIB',
  SHB: 'SHB',
  HDB: 'HDBank',
  OCB: 'OCB',
  MSB: 'MSB',
  EIB: 'Eximbank',
  LPB: 'LPBank',
  SSB: 'SeABank',
  NAB: 'Nam A Bank',
  SCB: 'SCB',
} as const;
export type BankCode = keyof typeof BANKS;
const BANK_CODES = Object.keys(BANKS) as [BankCode, ...BankCode[]];

const details = z.object({
  bank: z.enum(BANK_CODES).describe('Bank code (GET /atm/banks)'),
  deposit: z.boolean().optional().describe('Takes cash deposits (CDM)'),
  wheelchairAccessible: z.boolean().optional(),
});

export const atmCatalog = defineCatalog({
  tag: 'atm',
  collection: ATMS,
  basePath: '/atm',
  noun: 'ATM',
  nouns: 'ATMs',
  schemaName: 'Atm',
  pluralName: 'Atms',
  details,
  maxRadiusM: 5_000,
  filters: z.object({
    bank: z.enum(BANK_CODES).optional(),
    open24h: BooleanQuerySchema.optional().describe('true: only ATMs open around the clock'),
    deposit: BooleanQuerySchema.optional().describe('true: only ATMs that take deposits'),
  }),
  keep: (atm, f) =>
    (f.bank === undefined || atm.details.bank === f.bank) && (!f.open24h || atm.hours?.open24h === true) && (!f.deposit || atm.details.deposit === true),
});

export const atm = defineCatalogVertical(atmCatalog, {
  deps: () => partnerCatalogDeps,
  routes: () => ({
    before: [
      defineRoute({
        method: 'get',
        path: '/atm/banks',
        operationId: 'listAtmBanks',
        tag: 'atm',
        summary: 'Banks ATMs can belong to (for the bank filter)',
        auth: [],
        response: {
          description: 'Code and name of each bank.',
          schema: z.object({ banks: z.array(z.object({ code: z.string(), name: z.string() }).meta({ id: 'Bank' })) }),
        },
        handler: () => ({ banks: Object.entries(BANKS).map(([code, name]) => ({ code, name })) }),
      }),
    ],
  }),
});
export const atms = atm.service;
