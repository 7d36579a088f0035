import { z } from 'zod';
import { catalogRoutes } from '../../platform/kits/catalog/catalog.routes';
import type { AppContext } from '../../platform/core/http/module';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { BANKS } from './atm.catalog';
import { atms } from './atm.wiring';

export function atmRoutes(ctx: AppContext): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/atm/banks',
      operationId: 'listAtmBanks',
      tag: 'atm',
      summary: 'Banks ATMs can belong to (for the bank filter)',
      auth: [],
      response: {
        description: 'Code and name of each bank.',
        schema: z.object({ banks: z.array(z.object({ code: z.string(), name: z.string() }).meta({ id: 'Bank' })) }),
      },
      handler: () => ({ banks: Object.entries(BANKS).map(([code, name]) => ({ code, name })) }),
    }),
    ...catalogRoutes(atms(), ctx.config),
  ];
}
