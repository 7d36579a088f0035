import { z } from 'zod';

// bcrypt reads at most 72 bytes: longer passwords are refused, never silently truncated. No trimming.
export const MAX_PASSWORD_BYTES = 72;
export const PasswordSchema = z
  .string()
  .min(8, { message: 'must be at least 8 characters' })
  .refine((v) => Buffer.byteLength(v, 'utf8') <= MAX_PASSWORD_BYTES, {
    message: `must be at most ${MAX_PASSWORD_BYTES} bytes in UTF-8`,
  })
  .meta({ description: `8 characters to ${MAX_PASSWORD_BYTES} UTF-8 bytes; spaces count.` });

type Bcrypt = typeof import('bcryptjs');
const bcrypt = (): Bcrypt => require('bcryptjs') as Bcrypt;

export interface PasswordHasher {
  hash(plain: string): Promise<string>;
  /** Compares against a dummy hash when there is no account, so unknown users cost the same time. */
  verify(plain: string, hash: string | null | undefined): Promise<boolean>;
}

export function createPasswordHasher(cost: number): PasswordHasher {
  let dummy: Promise<string> | undefined;
  return {
    hash: (plain) => bcrypt().hash(plain, cost),
    async verify(plain, hash) {
      if (!hash) {
        dummy ??= bcrypt().hash('dummy-password-for-timing', cost);
        await bcrypt().compare(plain, await dummy);
        return false;
      }
      return bcrypt().compare(plain, hash);
    },
  };
}
