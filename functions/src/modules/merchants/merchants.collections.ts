// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
// `merchants/{id}`: a partner's stores that take orders (restaurants, cafés, groceries…; API only).
// `merchant_items/{merchantId}_{itemKey}`: their menus, one document per item (API only).
export const MERCHANTS = 'merchants';
export const MERCHANT_ITEMS = 'merchant_items';
