import { defineErrorCodes, type CodesOf } from '../../platform/core/errors/codes';

// The rentals module's error codes (code: [the status it comes with, what it means]).
export const RENTALS_ERROR_CODES = defineErrorCodes({
  RENTAL_NO_DEPOSIT: [422, 'The listing asks for no deposit (`depositVnd` 0).'],
  RENTAL_DEPOSIT_NOT_FOUND: [404, 'No such deposit of yours (another tenant’s or landlord’s answers the same).'],
  RENTAL_DEPOSIT_TRANSITION: [409, 'The deposit is not in a status that allows this (`details.status`), e.g. releasing one released already.'],
  RENTAL_DEPOSIT_NOT_ALLOWED: [409, 'The caller may not make this move on the deposit (a landlord confirming the lease, a tenant declining).'],
  RENTAL_OWN_LISTING: [403, 'The caller is an owner or staff member of the listing’s landlord: a deposit comes from a tenant.'],
  RENTAL_DEPOSIT_SELF_MANAGE: [403, 'Administrators do not settle a deposit they paid or whose landlord they belong to; another administrator does.'],
  RENTAL_VIEWING_CLOSED: [422, 'The time is outside the listing’s viewing hours (its opening hours; 08:00–20:00 when it sets none): `details.startsAt`.'],
});

declare module '../../platform/core/errors/codes' {
  interface ModuleErrorCodes extends CodesOf<typeof RENTALS_ERROR_CODES> {}
}
