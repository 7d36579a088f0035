import { z } from 'zod';
import { defineRoute, type AnyRoute } from '../../platform/core/http/route';
import { DeletedSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { AddressBodySchema, AddressPatchSchema, AddressSchema } from './addresses.schemas';
import { createAddressesService } from './addresses.service';

export function addressesRoutes(): AnyRoute[] {
  const addresses = createAddressesService();
  const common = { tag: 'addresses' as const, auth: [] as const, hat: 'CON' as const };
  return [
    defineRoute({
      ...common,
      method: 'get',
      path: '/addresses',
      operationId: 'listAddresses',
      summary: 'My saved addresses',
      response: { description: 'Default first, then HOME, WORK and the rest, oldest first (at most 20).', schema: z.object({ items: z.array(AddressSchema) }) },
      handler: async ({ auth }) => ({ items: await addresses.list(auth!.userId) }),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/addresses',
      operationId: 'createAddress',
      summary: 'Save an address',
      description: 'At most 20 (409 ADDRESS_LIMIT), one HOME and one WORK (409 ADDRESS_LABEL_TAKEN). The first address is the default.',
      idempotent: true,
      codes: ['ADDRESS_LIMIT', 'ADDRESS_LABEL_TAKEN'],
      request: { body: AddressBodySchema },
      response: { status: 201, description: 'The saved address.', schema: AddressSchema },
      handler: ({ auth, body }) => addresses.create(auth!.userId, body),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/addresses/:id',
      operationId: 'getAddress',
      summary: 'One of my addresses',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The address.', schema: AddressSchema },
      handler: ({ auth, params }) => addresses.get(auth!.userId, params.id),
    }),
    defineRoute({
      ...common,
      method: 'patch',
      path: '/addresses/:id',
      operationId: 'updateAddress',
      summary: 'Change one of my addresses',
      errors: [404],
      codes: ['ADDRESS_LABEL_TAKEN'],
      request: { params: IdParamsSchema, body: AddressPatchSchema },
      response: { description: 'The address after the change.', schema: AddressSchema },
      handler: ({ auth, params, body }) => addresses.update(auth!.userId, params.id, body),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/addresses/:id/default',
      operationId: 'setDefaultAddress',
      summary: 'Make an address my default',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'The new default.', schema: AddressSchema },
      handler: ({ auth, params }) => addresses.makeDefault(auth!.userId, params.id),
    }),
    defineRoute({
      ...common,
      method: 'delete',
      path: '/addresses/:id',
      operationId: 'deleteAddress',
      summary: 'Delete one of my addresses',
      description: 'Deleting the default makes the next one (HOME, WORK, then the oldest) the default.',
      errors: [404],
      request: { params: IdParamsSchema },
      response: { description: 'Deleted.', schema: DeletedSchema },
      handler: ({ auth, params }) => addresses.remove(auth!.userId, params.id),
    }),
  ];
}
