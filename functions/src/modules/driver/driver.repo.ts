import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/firebase/firebase';
import type { Capability, DriverProfile, Vehicle } from './driver.model';

export const DRIVER_PROFILES = 'driver_profiles';
const profiles = () => db().collection(DRIVER_PROFILES);

export const driverRepo = {
  async get(userId: string): Promise<DriverProfile | undefined> {
    const snap = await profiles().doc(userId).get();
    return snap.exists ? (snap.data() as DriverProfile) : undefined;
  },
  async txHasProfile(tx: Transaction, userId: string): Promise<boolean> {
    return (await tx.get(profiles().doc(userId))).exists;
  },
  txCreateProfile(tx: Transaction, userId: string, capabilities: Capability[], now: number, vehicle: Vehicle | null = null): void {
    const profile: DriverProfile = { userId, capabilities, vehicle, status: 'OFFLINE', lastLocation: null, approvedAt: now, createdAt: now, updatedAt: now };
    tx.set(profiles().doc(userId), profile);
  },
  // Approval: capabilities and vehicle set, status and location kept if the profile exists.
  txApprove(tx: Transaction, userId: string, capabilities: Capability[], vehicle: Vehicle | null, now: number): void {
    tx.set(profiles().doc(userId), { userId, capabilities, vehicle, approvedAt: now, updatedAt: now }, { merge: true });
  },
  async update(userId: string, patch: Partial<DriverProfile>): Promise<void> {
    await profiles().doc(userId).update(patch);
  },
  // Backfill: approved drivers whose capabilities are missing or empty, in pages.
  async *withoutCapabilities(pageSize = 300): AsyncGenerator<FirebaseFirestore.QueryDocumentSnapshot[]> {
    let last: FirebaseFirestore.QueryDocumentSnapshot | undefined;
    for (;;) {
      let query = profiles().orderBy('__name__').limit(pageSize);
      if (last) query = query.startAfter(last);
      const snap = await query.get();
      if (snap.empty) return;
      last = snap.docs[snap.size - 1];
      yield snap.docs.filter((d) => {
        const caps = d.get('capabilities') as unknown;
        return d.get('approvedAt') && (!Array.isArray(caps) || caps.length === 0);
      });
    }
  },
};
