import { defineModule } from '../../platform/core/module/module';
import { WALLET_ERROR_CODES } from './wallet.errors';
import { WALLET_EVENTS } from './wallet.events';
import { EVENTS } from '../../platform/kits/state-machine/state-machine';
import {
  ADJUSTMENTS,
  LEDGER_ACCOUNTS,
  LEDGER_SHARDS,
  LEDGER_TRANSFERS,
  STAFF_TOTALS,
  WALLET_LIMITS,
  WALLET_TRANSFERS,
  WITHDRAWALS,
} from './wallet.collections';
import { walletSwitches } from './wallet.config';

// The ledger (accounts, shards, immutable transfers), the wallet API over it, and withdrawals of earnings.
const ledger = () => require('./ledger.model') as typeof import('./ledger.model');
const wallet = () => require('./wallet.model') as typeof import('./wallet.model');

export const walletModule = defineModule({
  name: 'wallet',
  uses: ['notifications', 'users'],
  apiTags: { wallet: 'Wallet balance, top-ups, transfers and history.' },
  config: walletSwitches,
  seed: { after: ['payments'], load: () => (require('./wallet.seed') as typeof import('./wallet.seed')).seedWallet },
  commands: {
    'ledger-check': {
      describe: 'checks every balance against its transfers and the ledger against zero (exit 1: not balanced)',
      load: () => (require('./wallet.commands') as typeof import('./wallet.commands')).ledgerCheck,
    },
  },
  errorCodes: WALLET_ERROR_CODES,
  events: WALLET_EVENTS.rows,
  routes: (ctx) => (require('./wallet.routes') as typeof import('./wallet.routes')).walletRoutes(ctx),
  triggers: {
    // The recipient's "money received" notice of a P2P transfer (at least once; idempotent by transfer id). On the
    // P2P record, not on ledger rows: payments post several rows each, none of which needs a function run.
    walletTransferCreated: {
      document: `${WALLET_TRANSFERS}/{transferId}`,
      on: 'created',
      load: () => (require('./wallet.triggers') as typeof import('./wallet.triggers')).onTransferCreated,
    },
    // The owner's notice of an approved or rejected withdrawal.
    walletWithdrawalChanged: {
      document: `${WITHDRAWALS}/{withdrawalId}`,
      on: 'written',
      load: () => (require('./wallet.triggers') as typeof import('./wallet.triggers')).onWithdrawalWritten,
    },
  },
  collections: [
    {
      name: LEDGER_ACCOUNTS,
      clientAccess: true,
      listened: {
        name: 'LedgerAccountDocument',
        path: `${LEDGER_ACCOUNTS}/{accountId}`,
        readers: 'its owner (`ownerId` is the caller)',
        schema: () => ledger().accountDocument(),
      },
    },
    { name: LEDGER_SHARDS, parent: LEDGER_ACCOUNTS },
    {
      name: LEDGER_TRANSFERS,
      clientAccess: true,
      listened: {
        name: 'LedgerTransferDocument',
        path: `${LEDGER_TRANSFERS}/{transferId}`,
        readers: 'the owners of either account (`owners` contains the caller)',
        schema: () => ledger().transferDocument(),
      },
    },
    { name: WALLET_LIMITS, ttlField: 'expireAt' },
    { name: WALLET_TRANSFERS },
    {
      name: WITHDRAWALS,
      clientAccess: true,
      listened: {
        name: 'WithdrawalDocument',
        path: `${WITHDRAWALS}/{withdrawalId}`,
        readers: 'its owner (`userId` is the caller)',
        schema: () => wallet().withdrawalDocument(),
      },
    },
    { name: EVENTS, parent: WITHDRAWALS },
    { name: ADJUSTMENTS },
    { name: EVENTS, parent: ADJUSTMENTS },
    { name: STAFF_TOTALS, ttlField: 'expireAt' },
  ],
});
