import { PLATFORM_COLLECTIONS } from '../platform/kits/firestore/collections';
import { defineModules, installModules, type CollectionDefinition, type ModuleDefinition, type ModuleRegistry } from '../platform/core/module/module';
import { apiTagTable } from '../platform/core/openapi/tags';
import { adminModule } from './admin/admin.module';
import { authModule } from './auth/auth.module';
import { chatModule } from './chat/chat.module';
import { driverModule } from './driver/driver.module';
import { healthModule } from './health/health.module';
import { kycModule } from './kyc/kyc.module';
import { mediaModule } from './media/media.module';
import { notificationsModule } from './notifications/notifications.module';
import { partnersModule } from './partners/partners.module';
import { placesModule } from './places/places.module';
import { pharmacyModule } from './pharmacy/pharmacy.module';
import { merchantsModule } from './merchants/merchants.module';
import { parkingModule } from './parking/parking.module';
import { fuelModule } from './fuel/fuel.module';
import { atmModule } from './atm/atm.module';
import { addressesModule } from './addresses/addresses.module';
import { favoritesModule } from './favorites/favorites.module';
import { reviewsModule } from './reviews/reviews.module';
import { promotionsModule } from './promotions/promotions.module';
import { ridesModule } from './rides/rides.module';
import { routingModule } from './routing/routing.module';
import { paymentsModule } from './payments/payments.module';
import { usersModule } from './users/users.module';
import { walletModule } from './wallet/wallet.module';
import { statusModule } from './status/status.module';
import { ordersModule } from './orders/orders.module';
import { deliveryModule } from './delivery/delivery.module';
import { cartModule } from './cart/cart.module';
import { bookingsModule } from './bookings/bookings.module';
import { hotelsModule } from './hotels/hotels.module';
import { rentalsModule } from './rentals/rentals.module';
import { medicalModule } from './medical/medical.module';
import { schoolsModule } from './schools/schools.module';
import { homeServicesModule } from './homeservices/homeservices.module';
import { socialModule } from './social/social.module';
import { cmsModule } from './cms/cms.module';
import { supportModule } from './support/support.module';
import { assistantModule } from './assistant/assistant.module';

// The one list of modules. The API mounts their routes (in this order), the Cloud Functions entry exports
// their task and trigger functions, and every central list (events, save and review targets, chat contexts,
// payment purposes, promotion verticals, permissions) is derived from their definitions; tests check their
// collections against firestore.rules and firestore.indexes.json, and .dependency-cruiser.cjs reads their `uses`.
// Adding a module is adding its folder and one line here (and its rules and index blocks, if it needs any).
export const REGISTRY: ModuleRegistry = installModules(
  defineModules([
    healthModule,
    authModule,
    usersModule,
    adminModule,
    kycModule,
    driverModule,
    partnersModule,
    ridesModule,
    mediaModule,
    notificationsModule,
    chatModule,
    routingModule,
    walletModule,
    paymentsModule,
    placesModule,
    pharmacyModule,
    parkingModule,
    fuelModule,
    atmModule,
    merchantsModule,
    addressesModule,
    favoritesModule,
    reviewsModule,
    promotionsModule,
    statusModule,
    ordersModule,
    cartModule,
    deliveryModule,
    bookingsModule,
    hotelsModule,
    rentalsModule,
    medicalModule,
    schoolsModule,
    homeServicesModule,
    socialModule,
    cmsModule,
    supportModule,
    assistantModule,
  ]),
);

export const MODULES: readonly ModuleDefinition[] = REGISTRY.modules;

/** Every collection of the backend, each with its owner (a module, or `platform`). */
export const COLLECTIONS: ReadonlyArray<CollectionDefinition & { owner: string }> = [
  ...PLATFORM_COLLECTIONS.map((c) => ({ ...c, owner: 'platform' })),
  ...MODULES.flatMap((m) => (m.collections ?? []).map((c) => ({ ...c, owner: m.name }))),
];

/** The spec's API tags with their descriptions: the modules' (`apiTags`) and the ones no module serves yet, in name order. */
export const API_TAGS: Readonly<Record<string, string>> = apiTagTable(MODULES);

/** The documents apps read with snapshot listeners (the Firestore half of the contract), in collection order. */
export const LISTENED_DOCUMENTS = COLLECTIONS.flatMap((c) => (c.listened ? [c.listened] : []));
