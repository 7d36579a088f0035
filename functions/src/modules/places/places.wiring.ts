import { catalogServiceOnce } from '../../platform/kits/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { placesCatalog } from './places.catalog';

export const placesService = catalogServiceOnce(placesCatalog, () => partnerCatalogDeps);
