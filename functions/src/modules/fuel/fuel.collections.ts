// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
// `fuel_stations/{id}`: fuel stations with their brand and prices per fuel type (VND per litre).
// `fuel_price_changes/{id}`: every price change (who, when, before, after), API only.
export const FUEL_STATIONS = 'fuel_stations';
export const FUEL_PRICE_CHANGES = 'fuel_price_changes';
