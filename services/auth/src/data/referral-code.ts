import { randomInt } from 'node:crypto';
import { REFERRAL_CODE_LENGTH } from '@gpt/contracts';

// No 0/O, 1/I/L: a code read aloud or retyped from a screenshot still works.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** A fresh random referral code (31^8 ≈ 8.5·10^11 of them, so a clash is retried, never expected). */
export function newReferralCode(): string {
  let code = '';
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}
