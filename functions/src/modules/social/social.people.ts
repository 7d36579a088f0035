import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { inTransaction } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { iso } from '../../platform/kits/time/time';
import { eitherBlocks } from '../chat';
import { attachableImage } from '../media';
import { accounts } from '../users';
import { PROFILE_COUNTS, type FollowRecord } from './social.model';
import { socialRepo as repo } from './social.repo';
import type { ProfileBodySchema } from './social.schemas';

// People in the social tab: profiles (handle, bio, avatar, counts) and follows. A follow and its two counters change
// in one transaction (a repeated follow finds the follow there and changes nothing); following a large account adds
// it to the follower's merge list in the same transaction, which reads the followee's profile: a profile marked large
// meanwhile makes it retry and see the mark (social.fanout.ts).

type Caller = Pick<AuthContext, 'userId'>;
const noSuchUser = () => new NotFoundError('No such user');

export function createPeopleService(now: () => number = Date.now) {
  /** An active account (404 otherwise: locked and unknown accounts look the same). */
  async function activeAccount(userId: string) {
    const account = await accounts.get(userId);
    if (!account || account.disabled || account.status !== 'ACTIVE') throw noSuchUser();
    return account;
  }

  async function personPage(page: { items: FollowRecord[]; nextCursor: string | null }, side: 'followerId' | 'followeeId') {
    const ids = page.items.map((f) => f[side]);
    const [names, profiles] = await Promise.all([Promise.all(ids.map((id) => accounts.get(id))), repo.profiles(ids)]);
    return {
      items: page.items.map((f, i) => ({
        userId: f[side],
        name: names[i]?.name ?? 'User',
        handle: profiles.get(f[side])?.handle ?? null,
        since: iso(f.createdAt),
      })),
      nextCursor: page.nextCursor,
    };
  }

  return {
    /** A person's profile page as `viewer` sees it (404 when either blocks the other: they do not meet here). */
    async profile(viewer: Caller, userId: string) {
      const account = await activeAccount(userId);
      if (viewer.userId !== userId && (await eitherBlocks(viewer.userId, userId))) throw noSuchUser();
      const [profile, counts, following, followsYou] = await Promise.all([
        repo.profile(userId),
        PROFILE_COUNTS.read(repo.profileRef(userId)),
        viewer.userId === userId ? Promise.resolve(new Set<string>()) : repo.followsAmong(viewer.userId, [userId]),
        viewer.userId === userId ? Promise.resolve(new Set<string>()) : repo.followsAmong(userId, [viewer.userId]),
      ]);
      return {
        userId,
        name: account.name,
        handle: profile?.handle ?? null,
        bio: profile?.bio ?? null,
        avatarUrl: profile?.avatar?.url ?? null,
        counts,
        following: following.has(userId),
        followsYou: followsYou.has(viewer.userId),
      };
    },

    /** Sets a handle (unique: claimed in the same transaction), bio or avatar. */
    async updateProfile(caller: Caller, body: z.output<typeof ProfileBodySchema>) {
      const avatar =
        body.avatarMediaId === undefined || body.avatarMediaId === null ? body.avatarMediaId : await attachableImage(caller.userId, body.avatarMediaId);
      if (avatar === undefined && body.avatarMediaId)
        throw new UnprocessableError('The avatar must be one of your READY image uploads', { mediaIds: [body.avatarMediaId] }).withCode('SOCIAL_MEDIA_INVALID');
      await inTransaction(async (tx) => {
        const current = await repo.profile(caller.userId, tx);
        const owner = body.handle ? await repo.txHandleOwner(tx, body.handle) : undefined;
        if (owner !== undefined && owner !== caller.userId) throw new ConflictError('Someone else has this handle').withCode('SOCIAL_HANDLE_TAKEN');
        if (body.handle !== undefined && current?.handle && current.handle !== body.handle) repo.txReleaseHandle(tx, current.handle);
        if (body.handle) repo.txClaimHandle(tx, body.handle, caller.userId);
        repo.txSetProfile(tx, caller.userId, {
          ...(current ? {} : { handle: null, bio: null, avatar: null, large: false, mergeAuthors: [] }),
          ...(body.handle !== undefined ? { handle: body.handle } : {}),
          ...(body.bio !== undefined ? { bio: body.bio } : {}),
          ...(avatar !== undefined ? { avatar: avatar && { id: avatar.id, url: avatar.url } } : {}),
          updatedAt: now(),
        });
      });
      return this.profile(caller, caller.userId);
    },

    async follow(caller: Caller, userId: string) {
      if (userId === caller.userId) throw new UnprocessableError('You cannot follow yourself').withCode('SOCIAL_FOLLOW_SELF');
      await activeAccount(userId);
      await inTransaction(async (tx) => {
        const [existing, blocked, followee] = await Promise.all([
          repo.txFollow(tx, caller.userId, userId),
          eitherBlocks(caller.userId, userId, tx),
          repo.profile(userId, tx),
        ]);
        if (blocked) throw new ForbiddenError('One of you blocks the other').withCode('SOCIAL_BLOCKED');
        if (existing) return;
        repo.txCreateFollow(tx, { followerId: caller.userId, followeeId: userId, createdAt: now() });
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(userId), { followers: 1 }, caller.userId);
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(caller.userId), { following: 1 }, userId);
        if (followee?.large) repo.changeMergeAuthors(tx, caller.userId, userId, true);
      });
      return { userId, following: true, followers: (await PROFILE_COUNTS.read(repo.profileRef(userId))).followers };
    },

    async unfollow(caller: Caller, userId: string) {
      await inTransaction(async (tx) => {
        if (!(await repo.txFollow(tx, caller.userId, userId))) return;
        repo.txDeleteFollow(tx, caller.userId, userId);
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(userId), { followers: -1 }, caller.userId);
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(caller.userId), { following: -1 }, userId);
        repo.changeMergeAuthors(tx, caller.userId, userId, false);
      });
      return { userId, following: false, followers: (await PROFILE_COUNTS.read(repo.profileRef(userId))).followers };
    },

    async followers(viewer: Caller, userId: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      await this.profile(viewer, userId);
      return personPage(await repo.followersPage(userId, { ...request, query: `social:followers:${userId}`, caller: viewer.userId }), 'followerId');
    },

    async following(viewer: Caller, userId: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      await this.profile(viewer, userId);
      return personPage(await repo.followingPage(userId, { ...request, query: `social:following:${userId}`, caller: viewer.userId }), 'followeeId');
    },
  };
}
