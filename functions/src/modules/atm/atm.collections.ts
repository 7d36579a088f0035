// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
// `atms/{id}`: cash machines by bank; 24h is openingHours.open24h, cash deposit a flag.
export const ATMS = 'atms';
