// Public face of the social module: its collection names (no other module reads its data yet).
export { SOCIAL_POSTS, SOCIAL_PROFILES } from './social.collections';
