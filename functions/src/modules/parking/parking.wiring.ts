import { catalogServiceOnce } from '../../platform/kits/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { parkingCatalog } from './parking.catalog';

export const parkingLots = catalogServiceOnce(parkingCatalog, () => partnerCatalogDeps);
