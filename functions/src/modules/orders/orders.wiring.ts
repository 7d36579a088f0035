import { perConfig, type AppConfig } from '../../platform/core/config';
import { paymentCommands } from '../payments';
import { orderSettings } from './orders.config';
import { jobPool } from '../driver';
import { partnerMembers } from '../partners';
import { promotionCommands } from '../promotions';
import { ABSENT_SELLERS } from './orders.neighbours';
import type { OrderPorts } from './orders.ports';
import { createOrdersService } from './orders.service';

// Services of the orders module, built once per configuration, with its ports bound to the neighbours' faces.
// At merge (CONTRACTS.md): sellers → merchants' `sellers`, couriers → driver's `jobPool`, promotions →
// `promotionCommands(config)`, partners → the partners face's members of a partner.
function neighboursOf(config: Readonly<AppConfig>): OrderPorts {
  return { sellers: ABSENT_SELLERS, couriers: jobPool, promotions: promotionCommands(config), partners: { members: partnerMembers } };
}

const bound = new WeakMap<Readonly<AppConfig>, OrderPorts>();

/** Binds other ports for the services of one configuration (an app a test builds with doubles), before its first use. */
export function bindOrderPorts(config: Readonly<AppConfig>, ports: OrderPorts): void {
  bound.set(config, ports);
}

export const ordersServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createOrdersService({ ports: bound.get(config) ?? neighboursOf(config), payments: paymentCommands(config), settings: orderSettings(config) }),
);
