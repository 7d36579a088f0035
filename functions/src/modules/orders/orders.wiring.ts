import { perConfig, type AppConfig } from '../../platform/core/config';
import { paymentCommands } from '../payments';
import { imageLinks } from '../media';
import { orderSettings } from './orders.config';
import { jobPool } from '../driver';
import { sellers } from '../merchants';
import { partnerMembers } from '../partners';
import { promotionCommands } from '../promotions';
import type { OrderPorts } from './orders.ports';
import { createOrdersService } from './orders.service';

// Services of the orders module, built once per configuration, with its ports bound to the neighbours' faces: the
// merchants' sellers, the driver module's job pool, promotions' commands and the partners' members.
function neighboursOf(config: Readonly<AppConfig>): OrderPorts {
  return { sellers, couriers: jobPool, promotions: promotionCommands(config), partners: { members: partnerMembers } };
}

const bound = new WeakMap<Readonly<AppConfig>, OrderPorts>();

/** Binds other ports for the services of one configuration (an app a test builds with doubles), before its first use. */
export function bindOrderPorts(config: Readonly<AppConfig>, ports: OrderPorts): void {
  bound.set(config, ports);
}

export const ordersServiceFor = perConfig((config: Readonly<AppConfig>) =>
  createOrdersService({
    ports: bound.get(config) ?? neighboursOf(config),
    payments: paymentCommands(config),
    settings: orderSettings(config),
    media: imageLinks(config),
  }),
);
