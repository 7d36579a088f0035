import type { DocumentEvent } from '../../platform/module/module';
import type { TargetType } from '../favorites';
import { createReviewsService } from './reviews.service';

let service: ReturnType<typeof createReviewsService> | undefined;

/** Any change of a review (created, edited, hidden, deleted): the record's average and count are recomputed. */
export async function onReviewWritten(event: DocumentEvent): Promise<unknown> {
  const data = event.after?.data ?? event.before?.data;
  if (!data) return undefined;
  service ??= createReviewsService();
  return service.recompute(data.targetType as TargetType, data.targetId as string);
}
