// Public face of the home-services module: its provider catalog (favorites and reviews reach providers through it).
export { HOME_SERVICE_PROVIDERS } from './homeservices.collections';
export function homeServiceProviders() {
  return (require('./homeservices.catalog') as typeof import('./homeservices.catalog')).providerRecords();
}
