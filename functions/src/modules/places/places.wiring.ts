import { createCatalogService, type CatalogService } from '../../platform/catalog/catalog.service';
import { partnerCatalogDeps } from '../partners';
import { placesCatalog } from './places.catalog';

let service: CatalogService<typeof placesCatalog.details, typeof placesCatalog.filters> | undefined;
/** The places catalog (no configuration of its own: one per process). */
export const placesService = () => (service ??= createCatalogService(placesCatalog, partnerCatalogDeps));
