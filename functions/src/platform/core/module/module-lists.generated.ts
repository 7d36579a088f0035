// Generated from the module list (src/modules/index.ts): do not edit. Each entry is claimed by one module's definition.
// After changing a claim: UPDATE_MODULE_LISTS=1 npm run test:unit -- module-definitions (the test checks this file).
export const MODULE_LISTS = {
  chatContexts: ['RIDE', 'ORDER', 'BOOKING'],
  paymentPurposes: ['RIDE', 'TOPUP', 'ORDER', 'BOOKING', 'RENTAL_DEPOSIT', 'OTHER'],
  promotionVerticals: ['RIDE', 'PHARMACY', 'PARKING', 'ORDER', 'BOOKING'],
  permissions: ['users.manage', 'applications.review', 'kyc.read', 'rides.manage', 'payments.manage', 'promotions.manage', 'status.manage'],
} as const;
