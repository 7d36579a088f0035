import { defineModule } from '../../platform/core/module/module';
import { REVIEW_ERROR_CODES } from './reviews.errors';
import { REVIEW_HIDES, REVIEW_REPORTS, REVIEWS } from './reviews.model';

// Ratings and reviews of the records users find on the map; the figures on each record follow from a trigger.
export const reviewsModule = defineModule({
  name: 'reviews',
  uses: ['favorites', 'media', 'users'],
  apiTags: { reviews: 'Ratings and reviews of merchants, drivers, places and listings.' },
  errorCodes: REVIEW_ERROR_CODES,
  routes: () => (require('./reviews.routes') as typeof import('./reviews.routes')).reviewsRoutes(),
  triggers: {
    // Recomputes the reviewed record's average and count (idempotent: an aggregate, not an increment).
    reviewWritten: {
      document: `${REVIEWS}/{reviewId}`,
      on: 'written',
      load: () => (require('./reviews.triggers') as typeof import('./reviews.triggers')).onReviewWritten,
    },
  },
  collections: [{ name: REVIEWS }, { name: REVIEW_REPORTS }, { name: REVIEW_HIDES }],
});
