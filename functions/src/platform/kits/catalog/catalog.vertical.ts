import type { z } from 'zod';
import type { AppContext } from '../../core/http/module';
import type { AnyRoute } from '../../core/http/route';
import type { CatalogDeps } from './catalog.access';
import { createCatalogItemsService, type CatalogItemsService } from './catalog.items';
import { catalogItemsRoutes, catalogItemsSearchRoute } from './catalog.items.routes';
import { catalogRoutes } from './catalog.routes';
import { catalogServiceOnce, type CatalogService } from './catalog.service';
import type { CatalogItemsSpec, CatalogSpec } from './catalog.spec';

/** A vertical's own routes beside the kit's: `before` them (literal paths that `/:id` would catch), or `after`. */
export interface CatalogVerticalRoutes {
  before?: AnyRoute[];
  after?: AnyRoute[];
}

type ItemsOf<I> = I extends CatalogItemsSpec<infer B, infer V, infer P, infer N> ? CatalogItemsService<B, V, P, N> : never;

/**
 * A catalog vertical in one declaration: its spec (with child items or not), its service and its routes. The
 * service is built on first use; `routes(ctx)` is what the module definition's `routes` returns: the vertical's
 * `before` routes, the items' nearby search, the kit's eleven record operations, the items' list/put/remove, then
 * the vertical's `after` routes.
 */
export function defineCatalogVertical<D extends z.ZodObject, F extends z.ZodObject, I extends CatalogItemsSpec | undefined>(
  spec: CatalogSpec<D, F> & { items: I },
  options: { deps: () => CatalogDeps; routes?: (service: CatalogService<D, F>, ctx: AppContext) => CatalogVerticalRoutes },
) {
  const service = catalogServiceOnce(spec, options.deps);
  let items: CatalogItemsService | undefined;
  /** The items' service (only for a spec declaring items). */
  const itemsService = (): ItemsOf<I> => {
    if (!spec.items) throw new Error(`The ${spec.nouns} catalog declares no child items`);
    return (items ??= createCatalogItemsService(spec.items, service() as never)) as ItemsOf<I>;
  };
  return {
    spec,
    service,
    items: itemsService,
    routes(ctx: AppContext): AnyRoute[] {
      const own = options.routes?.(service(), ctx) ?? {};
      const children = spec.items ? (itemsService() as CatalogItemsService) : undefined;
      const search = children ? catalogItemsSearchRoute(children, ctx.config) : undefined;
      return [
        ...(own.before ?? []),
        ...(search ? [search] : []),
        ...catalogRoutes(service(), ctx.config),
        ...(children ? catalogItemsRoutes(children) : []),
        ...(own.after ?? []),
      ];
    },
  };
}
