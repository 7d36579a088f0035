import { z } from 'zod';
import { iso } from '../time/time';
import { IsoTimeSchema } from '../time/time.schemas';
import { HANDOVER_CODE_ATTEMPTS, HANDOVER_CODE_DIGITS, type HandoverProof } from './handover';

// The API's side of the handover kit: a request proves a handover with the code or a photo id, never both.

export const HandoverCodeSchema = z
  .string()
  .regex(new RegExp(`^\\d{${HANDOVER_CODE_DIGITS}}$`), { message: `must be ${HANDOVER_CODE_DIGITS} digits` })
  .meta({ id: 'HandoverCode', description: 'The 4-digit code the receiving person sees in their app.', example: '0427' });

export const HandoverProofBodySchema = z
  .object({
    code: HandoverCodeSchema.optional(),
    photoId: z.string().trim().min(1).max(128).optional().describe('A photo of the handover: the id of my own READY image upload (POST /media)'),
  })
  .refine((b) => (b.code === undefined) !== (b.photoId === undefined), { message: 'give either code or photoId', path: ['code'] })
  .meta({
    id: 'HandoverProofBody',
    description: `The code (after ${HANDOVER_CODE_ATTEMPTS} wrong codes, code-proof is locked: a photo is needed), or a photo id.`,
  });

export const HandoverProofSchema = z
  .object({
    method: z.enum(['CODE', 'PHOTO']),
    photo: z.object({ id: z.string(), url: z.string() }).nullable(),
    by: z.string(),
    at: IsoTimeSchema,
  })
  .meta({ id: 'HandoverProof', description: 'How a handover was proved, by whom and when.' });

export const handoverProofView = (p: HandoverProof): z.output<typeof HandoverProofSchema> => ({ ...p, at: iso(p.at) });
