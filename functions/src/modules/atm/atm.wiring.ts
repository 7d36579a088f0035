import { catalogServiceOnce } from '../../platform/kits/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { atmCatalog } from './atm.catalog';

export const atms = catalogServiceOnce(atmCatalog, () => partnerCatalogDeps);
