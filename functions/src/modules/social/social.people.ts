import type { z } from 'zod';
import type { AuthContext } from '../../platform/core/auth/access-token';
import { ConflictError, ForbiddenError, NotFoundError, UnprocessableError } from '../../platform/core/errors/app-error';
import { db, inTransaction } from '../../platform/core/firebase/firebase';
import type { PageRequest } from '../../platform/kits/firestore/paginate';
import { iso } from '../../platform/kits/time/time';
import { blockersOf, blockListOf, blockState, eitherBlocks } from '../chat';
import { attachableImage } from '../media';
import { accounts } from '../users';
import { PROFILE_COUNTS, type FollowRecord } from './social.model';
import { socialRepo as repo } from './social.repo';
import type { ProfileBodySchema } from './social.schemas';

// People in the social tab: profiles (handle, bio, avatar, counts) and follows. A follow and its two counters change
// in one transaction (a repeated follow finds the follow there and changes nothing); following a large account adds
// it to the follower's merge list in the same transaction, which reads the followee's profile: a profile marked large
// meanwhile makes it retry and see the mark (social.fanout.ts). A follow and an unfollow of an author not marked large
// also change the author's follower set (the ids the fan-out reads) in the same transaction.

type Caller = Pick<AuthContext, 'userId'>;
const noSuchUser = () => new NotFoundError('No such user');

/** The names of the active accounts among `ids` (locked, unverified and unknown ones left out), one getAll. */
export async function activePeople(ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const snaps = await db().getAll(...unique.map((id) => accounts.ref(id)), { fieldMask: ['name', 'disabled', 'status'] });
  return new Map(
    snaps.filter((s) => s.exists && s.get('disabled') !== true && s.get('status') === 'ACTIVE').map((s) => [s.id, (s.get('name') as string) ?? 'User']),
  );
}

/** A person `viewer` meets in the social tab: active, and neither blocks the other (404 otherwise, the same for all). */
export async function visiblePerson(viewer: Caller, userId: string): Promise<{ name: string }> {
  const [people, blocked] = await Promise.all([activePeople([userId]), viewer.userId === userId ? false : eitherBlocks(viewer.userId, userId)]);
  const name = people.get(userId);
  if (name === undefined || blocked) throw noSuchUser();
  return { name };
}

/**
 * A page of people `viewer` meets (a follow list, a post's likers): names and handles, leaving out locked accounts
 * and people either of them blocks, so a page may hold fewer than it read. `since`: when they followed or liked.
 */
export async function peoplePage(viewer: Caller, entries: Array<{ userId: string; createdAt: number }>, nextCursor: string | null) {
  const ids = entries.map((e) => e.userId);
  const others = ids.filter((id) => id !== viewer.userId);
  const [names, profiles, blocked, blockers] = await Promise.all([
    activePeople(ids),
    repo.profiles(ids),
    blockListOf(viewer.userId),
    blockersOf(viewer.userId, others),
  ]);
  const shown = entries.filter((e) => names.has(e.userId) && !blocked.has(e.userId) && !blockers.has(e.userId));
  return {
    items: shown.map((e) => ({ userId: e.userId, name: names.get(e.userId)!, handle: profiles.get(e.userId)?.handle ?? null, since: iso(e.createdAt) })),
    nextCursor,
  };
}

export function createPeopleService(now: () => number = Date.now) {
  /** A page of follows as the people on one side. */
  const personPage = (viewer: Caller, page: { items: FollowRecord[]; nextCursor: string | null }, side: 'followerId' | 'followeeId') =>
    peoplePage(
      viewer,
      page.items.map((f) => ({ userId: f[side], createdAt: f.createdAt })),
      page.nextCursor,
    );

  async function profile(viewer: Caller, userId: string) {
    const { name } = await visiblePerson(viewer, userId);
    const own = viewer.userId === userId;
    const [stored, counts, following, followsYou] = await Promise.all([
      repo.profile(userId),
      PROFILE_COUNTS.read(repo.profileRef(userId)),
      own ? Promise.resolve(new Set<string>()) : repo.followsAmong(viewer.userId, [userId]),
      own ? Promise.resolve(new Set<string>()) : repo.followsAmong(userId, [viewer.userId]),
    ]);
    return {
      userId,
      name,
      handle: stored?.handle ?? null,
      bio: stored?.bio ?? null,
      avatarUrl: stored?.avatar?.url ?? null,
      counts,
      following: following.has(userId),
      followsYou: followsYou.has(viewer.userId),
    };
  }

  return {
    profile,

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
          ...(body.handle !== undefined ? { handle: body.handle } : {}),
          ...(body.bio !== undefined ? { bio: body.bio } : {}),
          ...(avatar !== undefined ? { avatar: avatar && { id: avatar.id, url: avatar.url } } : {}),
          updatedAt: now(),
        });
      });
      return profile(caller, caller.userId);
    },

    async follow(caller: Caller, userId: string) {
      if (userId === caller.userId) throw new UnprocessableError('You cannot follow yourself').withCode('SOCIAL_FOLLOW_SELF');
      if (!(await activePeople([userId])).has(userId)) throw noSuchUser();
      await inTransaction(async (tx) => {
        const [existing, blocks, followee, followers] = await Promise.all([
          repo.txFollow(tx, caller.userId, userId),
          blockState(caller.userId, userId, tx),
          repo.profile(userId, tx),
          repo.followerSet.txRead(tx, userId, caller.userId),
        ]);
        // Someone who blocks the caller is not there for them, as everywhere else; the caller's own block is named.
        if (blocks.bBlocksA) throw noSuchUser();
        if (blocks.aBlocksB) throw new ForbiddenError('You block this person: unblock them first').withCode('SOCIAL_BLOCKED');
        if (existing) return;
        repo.txCreateFollow(tx, { followerId: caller.userId, followeeId: userId, createdAt: now() });
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(userId), { followers: 1 }, caller.userId);
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(caller.userId), { following: 1 }, userId);
        // A large account's posts are merged at read time: its follower set is no longer read.
        if (followee?.large) repo.txChangeMergeAuthors(tx, caller.userId, userId, true);
        else repo.followerSet.txAdd(tx, followers);
      });
      return { userId, following: true, followers: (await PROFILE_COUNTS.read(repo.profileRef(userId))).followers };
    },

    /** Stops following (a locked account too: nobody is held to a follow). */
    async unfollow(caller: Caller, userId: string) {
      if (!(await accounts.get(userId))) throw noSuchUser();
      await inTransaction(async (tx) => {
        const [existing, followee, followers] = await Promise.all([
          repo.txFollow(tx, caller.userId, userId),
          repo.profile(userId, tx),
          repo.followerSet.txRead(tx, userId, caller.userId),
        ]);
        if (!existing) return;
        repo.txDeleteFollow(tx, caller.userId, userId);
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(userId), { followers: -1 }, caller.userId);
        PROFILE_COUNTS.txAdd(tx, repo.profileRef(caller.userId), { following: -1 }, userId);
        if (followee?.large) repo.txChangeMergeAuthors(tx, caller.userId, userId, false);
        else repo.followerSet.txRemove(tx, followers);
      });
      return { userId, following: false, followers: (await PROFILE_COUNTS.read(repo.profileRef(userId))).followers };
    },

    async followers(viewer: Caller, userId: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      await visiblePerson(viewer, userId);
      return personPage(viewer, await repo.followersPage(userId, { ...request, query: `social:followers:${userId}`, caller: viewer.userId }), 'followerId');
    },

    async following(viewer: Caller, userId: string, request: Omit<PageRequest, 'query' | 'caller'>) {
      await visiblePerson(viewer, userId);
      return personPage(viewer, await repo.followingPage(userId, { ...request, query: `social:following:${userId}`, caller: viewer.userId }), 'followeeId');
    },
  };
}
