import { catalogServiceOnce } from '../../platform/kits/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { fuelCatalog } from './fuel.catalog';

export const fuelStations = catalogServiceOnce(fuelCatalog, () => partnerCatalogDeps);
