import { randomUUID } from 'node:crypto';
import { adminTokens, registerVerified, type Tokens } from './accounts';
import { call } from './api';

// The wallet module's test driver: top-ups through the real API, the balances a user reads, the ledger check.

export type TopUpProvider = 'MOCK' | 'VNPAY' | 'MOMO';

/** POST /wallet/topups as the app sends it: the answer as it comes (a refused or pending top-up included). */
export const postTopUp = (who: Tokens, amount: number, provider: TopUpProvider = 'MOCK', idempotencyKey: string = randomUUID()) =>
  call('POST', '/wallet/topups', { token: who.accessToken, body: { amount, provider }, headers: { 'idempotency-key': idempotencyKey } });

/** Tops `who` up and answers the payment: refused requests and MOCK top-ups that did not succeed throw. */
export async function topUp(who: Tokens, amount: number, provider: TopUpProvider = 'MOCK') {
  const res = await postTopUp(who, amount, provider);
  if (res.status !== 201 || (provider === 'MOCK' && res.body.status !== 'SUCCEEDED')) throw new Error(`top-up ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A rider whose wallet was topped up with `amount` VND (MOCK gateway). */
export async function walletRider(amount = 300_000) {
  const rider = await registerVerified();
  await postTopUp(rider, amount);
  return rider;
}

/** GET /wallet: balance and held. */
export const walletOf = async (who: Tokens) => (await call('GET', '/wallet', { token: who.accessToken })).body as { balance: number; held: number };
export const balance = async (who: Tokens) => (await walletOf(who)).balance;

/** GET /wallet/earnings: a driver's earnings account. */
export const earningsOf = async (who: Tokens) =>
  (await call('GET', '/wallet/earnings', { token: who.accessToken })).body as { balance: number; reserved: number; available: number };
export const earnings = async (who: Tokens) => (await earningsOf(who)).balance;

/** The administrators' ledger check of one user's accounts (`ok` when the balances agree with the transfers). */
export const ledgerCheck = async (userId: string) =>
  (await call('GET', `/wallet/admin/users/${userId}/check`, { token: (await adminTokens()).accessToken })).body as { ok: boolean } & Record<string, unknown>;
