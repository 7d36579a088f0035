import { createHmac, hkdfSync, randomInt, timingSafeEqual } from 'node:crypto';

export const OTP_DIGITS = 6;

export function generateOtpCode(): string {
  return String(randomInt(0, 10 ** OTP_DIGITS)).padStart(OTP_DIGITS, '0');
}

// Codes are stored as an HMAC bound to the challenge (purpose, destination, challenge id): a leaked
// table neither reveals codes nor lets a code of one challenge pass for another.
export function otpKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'superapp-otp', 'otp-hmac-v1', 32));
}

export function hmacOtp(key: Buffer, challengeId: string, code: string): string {
  return createHmac('sha256', key).update(`${challengeId}:${code}`).digest('base64url');
}

export function otpMatches(key: Buffer, challengeId: string, code: string, storedHmac: string): boolean {
  const a = Buffer.from(hmacOtp(key, challengeId, code));
  const b = Buffer.from(storedHmac);
  return a.length === b.length && timingSafeEqual(a, b);
}
