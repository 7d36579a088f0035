import { perConfig, type AppConfig } from '../../platform/core/config';
import { createWalletService } from './wallet.service';

// Services of the wallet module, built once per configuration; routes and triggers take them from here.
export const walletServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createWalletService({ dailyTransferLimit: config.WALLET_DAILY_TRANSFER_LIMIT_VND, adjustmentApprovalVnd: config.WALLET_ADJUSTMENT_APPROVAL_VND }),
);
