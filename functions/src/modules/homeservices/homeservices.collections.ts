// Collection names, apart from the schemas: the module definition (loaded at every cold start) needs only these.
/** `home_service_providers/{id}`: home-service businesses on the map (a catalog of the platform kit), a partner each. */
export const HOME_SERVICE_PROVIDERS = 'home_service_providers';
/** `home_services/{providerId}_{serviceKey}`: a provider's services: category, hourly price, hours one visit takes. */
export const HOME_SERVICES = 'home_services';
