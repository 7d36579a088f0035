import { z } from 'zod';
import { PageQuerySchema } from '../../platform/kits/firestore/paginate';
import { DocumentIdSchema, IdParamsSchema } from '../../platform/core/http/ids';
import { CALL_STATUSES } from './calls.model';
import { IsoTimeSchema } from '../../platform/kits/time/time.schemas';

export const CallSchema = z
  .object({
    id: z.string(),
    callerId: z.string(),
    calleeId: z.string(),
    type: z.enum(['audio', 'video']),
    conversationId: z.string().nullable(),
    status: z.enum(CALL_STATUSES),
    endReason: z.enum(['busy', 'declined', 'cancelled', 'hangup', 'no_answer']).nullable(),
    endedBy: z.string().nullable(),
    ringExpiresAt: IsoTimeSchema,
    createdAt: IsoTimeSchema,
    answeredAt: IsoTimeSchema.nullable(),
    endedAt: IsoTimeSchema.nullable(),
  })
  .meta({ id: 'Call', description: 'Both participants can also listen to calls/{id} in Firestore for live status.' });

export const StartCallBodySchema = z
  .object({
    calleeId: DocumentIdSchema,
    type: z.enum(['audio', 'video']).default('audio'),
    conversationId: DocumentIdSchema.optional(),
  })
  .meta({ id: 'StartCallBody' });

export const CallIdParamsSchema = IdParamsSchema;
export const CallHistoryQuerySchema = PageQuerySchema;
export const CallHistorySchema = z.object({ calls: z.array(CallSchema), nextCursor: z.string().nullable() }).meta({ id: 'CallHistory' });
