import { MODULE_LISTS } from '../module/module-lists.generated';
// The spec's 7 roles; no other value exists.
export const ROLES = ['USER', 'DRIVER', 'PARTNER_OWNER', 'PARTNER_STAFF', 'LANDLORD', 'DOCTOR', 'ADMIN'] as const;
export type Role = (typeof ROLES)[number];

export const HATS = ['CON', 'PAR', 'DRV', 'ADM'] as const;
export type Hat = (typeof HATS)[number];

// Fine-grained grants for administrators. A list holds exactly what it names: `[]` holds none, `['*']`
// holds all. An account with no list at all (created before lists existed) holds all.
// users.manage: accounts, roles, broadcasts; applications.review: driver and partner papers; kyc.read: papers of
// others; payments.manage: wallets, ledger, refunds, withdrawals, others' payments; rides.manage: every ride, its
// location, receipt and events, stats, SOS, admin moves; moderation: chat and review report queues, hidden reviews;
// catalog.manage: catalog records of every partner (places, pharmacy, parking, fuel, ATMs), hide and restore;
// promotions.manage: platform vouchers.
// Those the module definitions claim (`permissions`), then the platform kits' own (moderation queues, catalogs).
export const ADMIN_PERMISSIONS = [...MODULE_LISTS.permissions, 'moderation', 'catalog.manage'] as const;
export type AdminPermission = (typeof ADMIN_PERMISSIONS)[number];
export const ALL_PERMISSIONS = '*';
export type PermissionGrant = AdminPermission | typeof ALL_PERMISSIONS;

export function holdsPermission(granted: readonly string[] | undefined, permission: AdminPermission): boolean {
  return granted === undefined || granted.includes(ALL_PERMISSIONS) || granted.includes(permission);
}

/** Whether `granted` covers every permission of `wanted` (an admin grants only what it holds). */
export function coversPermissions(granted: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (granted === undefined || granted.includes(ALL_PERMISSIONS)) return true;
  if (wanted === undefined || wanted.includes(ALL_PERMISSIONS)) return false;
  return wanted.every((p) => granted.includes(p));
}
