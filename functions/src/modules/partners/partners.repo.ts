import type { Transaction } from 'firebase-admin/firestore';
import { db } from '../../platform/core/firebase/firebase';
import { plainCollection, readRecord, typedCollection } from '../../platform/kits/firestore/records';
import { PARTNER_MEMBERS, PARTNERS, type MemberRecord, type PartnerRecord } from './partners.model';

const partners = () => db().collection(PARTNERS);
const members = () => plainCollection<MemberRecord>(PARTNER_MEMBERS);
const memberId = (partnerId: string, userId: string) => `${partnerId}_${userId}`;

export const partnersRepo = {
  newId: () => partners().doc().id,
  get: (id: string, tx?: Transaction) => readRecord(typedCollection<PartnerRecord>(PARTNERS).doc(id), tx),
  txCreate(tx: Transaction, partner: PartnerRecord): void {
    const { id, ...data } = partner;
    tx.create(partners().doc(id), data);
  },
  txActivate(tx: Transaction, id: string, now: number): void {
    tx.update(partners().doc(id), { status: 'ACTIVE', approvedAt: now, updatedAt: now });
  },
  async txMember(tx: Transaction, partnerId: string, userId: string): Promise<MemberRecord | undefined> {
    const snap = await tx.get(members().doc(memberId(partnerId, userId)));
    return snap.data();
  },
  member: (partnerId: string, userId: string, tx?: Transaction) => readRecord(members().doc(memberId(partnerId, userId)), tx),
  async txStaffMembershipsOf(tx: Transaction, userId: string): Promise<MemberRecord[]> {
    const snap = await tx.get(members().where('userId', '==', userId).where('role', '==', 'STAFF'));
    return snap.docs.map((d) => d.data());
  },
  txAddMember(tx: Transaction, member: MemberRecord): void {
    tx.create(members().doc(memberId(member.partnerId, member.userId)), member);
  },
  txRemoveMember(tx: Transaction, partnerId: string, userId: string): void {
    tx.delete(members().doc(memberId(partnerId, userId)));
  },
  async membersOf(partnerId: string): Promise<MemberRecord[]> {
    const snap = await members().where('partnerId', '==', partnerId).get();
    return snap.docs.map((d) => d.data()).sort((a, b) => a.createdAt - b.createdAt);
  },
  async membershipsOf(userId: string): Promise<MemberRecord[]> {
    const snap = await members().where('userId', '==', userId).get();
    return snap.docs.map((d) => d.data());
  },
  async ownedBy(userId: string): Promise<PartnerRecord[]> {
    const snap = await typedCollection<PartnerRecord>(PARTNERS).where('ownerId', '==', userId).get();
    return snap.docs.map((d) => d.data());
  },
};
