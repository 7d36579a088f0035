// Public face of the reviews module (nothing else reads reviews directly yet).
export { REVIEWS } from './reviews.model';
