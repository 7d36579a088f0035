import { perConfig, type AppConfig } from '../../platform/core/config';
import { savedAddress } from '../addresses';
import { attachableImage } from '../media';
import { sellers } from '../merchants';
import { paymentCommands } from '../payments';
import { orderCommands, orderLinesFor } from '../orders';
import { promotionCommands } from '../promotions';
import { cartSettings } from './cart.config';
import { checkoutDeadline } from './cart.leftovers';
import type { AddressesPort, CartPorts } from './cart.ports';
import { createCart } from './cart.service';

// Binds the cart's ports to its neighbours' faces, once per configuration.
const savedAddresses: AddressesPort = {
  async saved(userId, id) {
    const a = await savedAddress(userId, id);
    return a && { id: a.id, address: a.address, lat: a.lat, lng: a.lng, contactName: a.contactName, contactPhone: a.contactPhone, driverNote: a.driverNote };
  },
};

export const cartPortsFor = (config: Readonly<AppConfig>): CartPorts => ({
  sellers,
  orders: { ...orderCommands(config), linesFor: orderLinesFor },
  payments: paymentCommands(config),
  promotions: promotionCommands(config),
  media: { attachableImage: (ownerId, id) => attachableImage(ownerId, id) },
  addresses: savedAddresses,
});

export const cartServicesFor = perConfig((config: Readonly<AppConfig>) => {
  const settings = cartSettings(config);
  return createCart({ ...cartPortsFor(config), settings, scheduler: checkoutDeadline(settings.checkoutCheckSec).scheduler });
});
