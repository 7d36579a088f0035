import type { z } from 'zod';
import { ConflictError, NotFoundError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import { iso } from '../../platform/kits/time/time';
import { ADDRESS_LIMIT, addressOrder, type AddressLabel, type AddressRecord } from './addresses.model';
import { addressesRepo } from './addresses.repo';
import type { AddressBodySchema, AddressPatchSchema } from './addresses.schemas';

export function addressView(a: AddressRecord) {
  return {
    id: a.id,
    label: a.label,
    title: a.title,
    address: a.address,
    location: { lat: a.lat, lng: a.lng },
    driverNote: a.driverNote,
    contactName: a.contactName,
    contactPhone: a.contactPhone,
    isDefault: a.isDefault,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

const notFound = () => new NotFoundError('No such address');

// Every change reads the user's whole list (≤ 20) in its transaction: the limit, the single default and the
// single HOME/WORK hold under parallel requests.
function assertLabelFree(all: AddressRecord[], label: AddressLabel, exceptId?: string): void {
  if (label === 'OTHER') return;
  const holder = all.find((a) => a.label === label && a.id !== exceptId);
  if (holder)
    throw new ConflictError(`You have a ${label} address already: change that one or use OTHER`, { addressId: holder.id }).withCode('ADDRESS_LABEL_TAKEN');
}

export function createAddressesService(now: () => number = Date.now) {
  return {
    async list(userId: string) {
      return (await addressesRepo.ofUser(userId)).sort(addressOrder).map(addressView);
    },

    async get(userId: string, id: string) {
      const found = (await addressesRepo.ofUser(userId)).find((a) => a.id === id);
      if (!found) throw notFound();
      return addressView(found);
    },

    async create(userId: string, body: z.output<typeof AddressBodySchema>) {
      const t = now();
      const created = await inTransaction(async (tx) => {
        const all = await addressesRepo.ofUser(userId, tx);
        if (all.length >= ADDRESS_LIMIT) throw new ConflictError(`At most ${ADDRESS_LIMIT} saved addresses: delete one first`).withCode('ADDRESS_LIMIT');
        assertLabelFree(all, body.label);
        const isDefault = all.length === 0 || body.isDefault === true;
        if (isDefault) for (const a of all.filter((x) => x.isDefault)) addressesRepo.update(tx, a.id, { isDefault: false, updatedAt: t });
        const record: AddressRecord = {
          id: addressesRepo.newId(),
          userId,
          label: body.label,
          title: body.title ?? null,
          address: body.address,
          lat: body.location.lat,
          lng: body.location.lng,
          driverNote: body.driverNote ?? null,
          contactName: body.contactName ?? null,
          contactPhone: body.contactPhone ?? null,
          isDefault,
          createdAt: t,
          updatedAt: t,
        };
        addressesRepo.create(tx, record);
        return record;
      });
      return addressView(created);
    },

    async update(userId: string, id: string, patch: z.output<typeof AddressPatchSchema>) {
      const t = now();
      const after = await inTransaction(async (tx) => {
        const all = await addressesRepo.ofUser(userId, tx);
        const current = all.find((a) => a.id === id);
        if (!current) throw notFound();
        if (patch.label) assertLabelFree(all, patch.label, id);
        const fields: Partial<AddressRecord> = { updatedAt: t };
        if (patch.label !== undefined) fields.label = patch.label;
        if (patch.title !== undefined) fields.title = patch.title;
        if (patch.address !== undefined) fields.address = patch.address;
        if (patch.location !== undefined) Object.assign(fields, { lat: patch.location.lat, lng: patch.location.lng });
        if (patch.driverNote !== undefined) fields.driverNote = patch.driverNote;
        if (patch.contactName !== undefined) fields.contactName = patch.contactName;
        if (patch.contactPhone !== undefined) fields.contactPhone = patch.contactPhone;
        addressesRepo.update(tx, id, fields);
        return { ...current, ...fields };
      });
      return addressView(after);
    },

    async makeDefault(userId: string, id: string) {
      const t = now();
      const after = await inTransaction(async (tx) => {
        const all = await addressesRepo.ofUser(userId, tx);
        const current = all.find((a) => a.id === id);
        if (!current) throw notFound();
        for (const a of all.filter((x) => x.isDefault && x.id !== id)) addressesRepo.update(tx, a.id, { isDefault: false, updatedAt: t });
        if (!current.isDefault) addressesRepo.update(tx, id, { isDefault: true, updatedAt: t });
        return { ...current, isDefault: true, updatedAt: current.isDefault ? current.updatedAt : t };
      });
      return addressView(after);
    },

    /** Deleting the default passes it to the next address (default first, HOME, WORK, oldest). */
    async remove(userId: string, id: string) {
      const t = now();
      await inTransaction(async (tx) => {
        const all = await addressesRepo.ofUser(userId, tx);
        const current = all.find((a) => a.id === id);
        if (!current) throw notFound();
        addressesRepo.remove(tx, id);
        const heir = all.filter((a) => a.id !== id).sort(addressOrder)[0];
        if (current.isDefault && heir) addressesRepo.update(tx, heir.id, { isDefault: true, updatedAt: t });
      });
      return { deleted: true as const };
    },
  };
}
