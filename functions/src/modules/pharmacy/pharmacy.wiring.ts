import { catalogServiceOnce } from '../../platform/kits/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { pharmacyCatalog } from './pharmacy.catalog';
import { createPharmacyService } from './pharmacy.service';

export const pharmacyStores = catalogServiceOnce(pharmacyCatalog, () => partnerCatalogDeps);
let products: ReturnType<typeof createPharmacyService> | undefined;
export const pharmacyProducts = () => (products ??= createPharmacyService(pharmacyStores()));
