import type { CouriersPort, OrderPorts, PartnersPort, PromotionsPort, SellersPort } from './orders.ports';

// The neighbours of this build that are not merged yet: merchants' `sellers`, the driver module's `jobPool`,
// promotions' `promotionCommands` and the partners' members. Until they are, this build has no stores, couriers,
// vouchers or members to read: reads answer "none" (no staff, nobody free, no job, no members) and writes, which
// only an order made with those neighbours could ask for, throw. orders.wiring.ts binds the faces in their place.

const absent = (what: string) => () => {
  throw new Error(`orders: ${what} is not part of this build`);
};

export const ABSENT_SELLERS: SellersPort = {
  staffRole: async () => undefined,
  txGiveBack: absent('the sellers face (merchants)'),
};

export const ABSENT_COURIERS: CouriersPort = {
  nearbyAvailable: async () => [],
  txRead: async () => undefined,
  txClaim: () => undefined,
  txShareWithCustomer: absent('the job pool (driver)'),
  txRelease: absent('the job pool (driver)'),
  currentJob: async () => null,
};

export const ABSENT_PROMOTIONS: PromotionsPort = { releaseFor: absent('promotionCommands (promotions)') };

export const ABSENT_PARTNERS: PartnersPort = { members: async () => [] };

export const ABSENT_NEIGHBOURS: OrderPorts = { sellers: ABSENT_SELLERS, couriers: ABSENT_COURIERS, promotions: ABSENT_PROMOTIONS, partners: ABSENT_PARTNERS };
