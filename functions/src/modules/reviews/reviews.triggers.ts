import { collectionRecords, typedTrigger } from '../../platform/core/module/triggers';
import type { ReviewRecord } from './reviews.model';
import { createReviewsService } from './reviews.service';

let service: ReturnType<typeof createReviewsService> | undefined;

/** Any change of a review (created, edited, hidden, deleted): the record's average and count are recomputed. */
export const onReviewWritten = typedTrigger(collectionRecords<ReviewRecord>(), async ({ before, after }) => {
  const review = after ?? before;
  if (!review) return undefined;
  service ??= createReviewsService();
  return service.recompute(review.targetType, review.targetId);
});
