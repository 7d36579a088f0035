// Collection names, apart from the models: the module definition (loaded at every cold start) needs only these.
// ledger.model.ts and wallet.model.ts re-export them.

export const LEDGER_ACCOUNTS = 'ledger_accounts';
export const LEDGER_SHARDS = 'ledger_shards';
export const LEDGER_TRANSFERS = 'ledger_transfers';
export const WALLET_LIMITS = 'wallet_limits';
/** One record per P2P transfer (`wallet_transfers/{operationId}`): what the recipient's notice triggers on. */
export const WALLET_TRANSFERS = 'wallet_transfers';

export const WITHDRAWALS = 'wallet_withdrawals';
export const ADJUSTMENTS = 'wallet_adjustments';
/** `wallet_staff_totals/{admin_<id>|user_<id>}_{day}`: money staff moved without a second administrator that day. */
export const STAFF_TOTALS = 'wallet_staff_totals';
