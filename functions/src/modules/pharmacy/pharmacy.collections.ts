// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
// `pharmacy_stores/{id}`: pharmacies on the map (a chain's stores are one partner's records).
// `pharmacy_products/{storeId}_{sku}`: what a store sells and how many it has (API only).
export const PHARMACY_STORES = 'pharmacy_stores';
export const PHARMACY_PRODUCTS = 'pharmacy_products';
