import { perConfig, type AppConfig } from '../../platform/core/config';
import { typedCollection } from '../../platform/kits/firestore/records';
import { ADDRESSES } from '../addresses';
import { attachableImage } from '../media';
import { paymentCommands } from '../payments';
import { promotionCommands } from '../promotions';
import { cartSettings } from './cart.config';
import { checkoutDeadline } from './cart.leftovers';
import type { AddressesPort, CartPorts, OrdersPort, SavedAddress, SellersPort } from './cart.ports';
import { sellerGone } from './cart.pricing';
import { createCart } from './cart.service';

// Binds the cart's ports to its neighbours' faces, once per configuration.
//
// The merchants module (`sellers`) and the orders module (`orderCommands`) arrive with issue 32's other parts: until
// then no seller is known (every seller reads as gone: 404 CART_SELLER_NOT_FOUND) and so no order is ever placed. At
// merge the two bindings become `sellers` from '../merchants' and `orderCommands(config)` from '../orders', and the
// definition's `uses` names both.
const noSellers: SellersPort = {
  get: async () => undefined,
  quote: async (ref) => {
    throw sellerGone(ref);
  },
  txTake: async (_tx, ref) => {
    throw sellerGone(ref);
  },
};
const noOrders: OrdersPort = {
  txPlace: (_tx, draft) => {
    throw new Error(`order ${draft.id}: no orders module is bound to the cart`);
  },
  view: async () => undefined,
  txExists: async () => false,
};

/** A saved address through the addresses module's collection (its face names it; it has no reader command yet). */
const savedAddresses: AddressesPort = {
  async saved(userId, id) {
    const snap = await typedCollection<SavedAddress & { userId: string }>(ADDRESSES).doc(id).get();
    const a = snap.data();
    if (!a || a.userId !== userId) return undefined;
    return { id: a.id, address: a.address, lat: a.lat, lng: a.lng, contactName: a.contactName, contactPhone: a.contactPhone, driverNote: a.driverNote };
  },
};

export const cartPortsFor = (config: Readonly<AppConfig>): CartPorts => ({
  sellers: noSellers,
  orders: noOrders,
  payments: paymentCommands(config),
  promotions: promotionCommands(config),
  media: { attachableImage: (ownerId, id) => attachableImage(ownerId, id) },
  addresses: savedAddresses,
});

export const cartServicesFor = perConfig((config: Readonly<AppConfig>) => {
  const settings = cartSettings(config);
  return createCart({ ...cartPortsFor(config), settings, scheduler: checkoutDeadline(settings.checkoutCheckSec).scheduler });
});
