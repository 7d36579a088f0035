// Names only (module definitions import them at every cold start).
/** The subcollection of a published record's versions (`<collection>/{id}/versions/v000001`). */
export const VERSIONS = 'versions';
