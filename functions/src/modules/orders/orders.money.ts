import { percentOf, subtractVnd, vnd, type Vnd } from '../../platform/kits/money/money';
import { SYSTEM_ACCOUNTS, systemAccount, userAccount, type Leg } from '../wallet';
import type { OrderSettings } from './orders.config';
import type { OrderRecord } from './orders.model';

// Who gets what of a delivered order. The consumer's payment goes to the platform (a captured hold, a gateway
// payment, or cash the courier collected); from it the store gets the items less the commission, the courier the
// delivery fee less its commission; the platform keeps the service fee and the commissions and pays the discount.

export interface OrderSplit {
  storeVnd: Vnd;
  courierVnd: Vnd;
  commissionVnd: Vnd;
  deliveryCommissionVnd: Vnd;
  /** What a cash courier collects from the consumer (0 otherwise). */
  collectVnd: Vnd;
}

export function splitOf(order: Pick<OrderRecord, 'pricing' | 'payment'>, settings: Pick<OrderSettings, 'commissionBp' | 'deliveryCommissionBp'>): OrderSplit {
  const items = vnd(order.pricing.itemsVnd);
  const delivery = vnd(order.pricing.deliveryFeeVnd);
  const commissionVnd = percentOf(items, settings.commissionBp);
  const deliveryCommissionVnd = percentOf(delivery, settings.deliveryCommissionBp);
  return {
    storeVnd: subtractVnd(items, commissionVnd),
    courierVnd: subtractVnd(delivery, deliveryCommissionVnd),
    commissionVnd,
    deliveryCommissionVnd,
    collectVnd: order.payment.method === 'CASH' ? vnd(order.pricing.totalVnd) : vnd(0),
  };
}

/**
 * The ledger legs of the payout: out of platform revenue to the store owner's and the courier's earnings; for cash,
 * first what the courier collected, from the courier's earnings (which may go below zero: owed to the platform).
 */
export function payoutLegs(order: OrderRecord, split: OrderSplit, storeOwnerId: string): Leg[] {
  const revenue = systemAccount(SYSTEM_ACCOUNTS.platformRevenue);
  const courier = userAccount('EARNINGS', order.driverId!);
  const memo = `Order ${order.id}`;
  const legs: Leg[] = [];
  if (split.collectVnd > 0)
    legs.push({ kind: 'FEE', debit: courier, credit: revenue, amount: split.collectVnd, memo: `${memo}: cash collected`, allowOverdraft: true });
  if (split.storeVnd > 0)
    legs.push({ kind: 'PAYMENT', debit: revenue, credit: userAccount('EARNINGS', storeOwnerId), amount: split.storeVnd, memo: `${memo}: store payout` });
  if (split.courierVnd > 0) legs.push({ kind: 'PAYMENT', debit: revenue, credit: courier, amount: split.courierVnd, memo: `${memo}: delivery` });
  return legs;
}
