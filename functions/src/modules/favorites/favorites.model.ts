import type { TargetType } from './favorites.targets';

// `favorites/{userId}_{type}_{targetId}`: one document per saved record (the id makes adding idempotent). API only.
export const FAVORITES = 'favorites';
export const FAVORITE_LIMIT = 500;

export interface FavoriteRecord {
  userId: string;
  type: TargetType;
  targetId: string;
  createdAt: number;
}

export const favoriteId = (userId: string, type: TargetType, targetId: string) => `${userId}_${type}_${targetId}`;
