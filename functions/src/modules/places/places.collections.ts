// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
// `places/{id}`: points of interest on the map tab (restaurants, cafés, sights, shops, hospitals, schools…).
export const PLACES = 'places';
