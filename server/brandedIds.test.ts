import type { Kysely } from 'kysely';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { Database, ProfileId as RowProfileId, UserId as RowUserId } from '../db/schema.ts';
import { profileIdBody, searchResult, type SearchResult } from './contract/discovery.ts';
import { maxRowId, profileRowId, userRowId, type ProfileId, type UserId } from './contract/ids.ts';
import type { OwnProfileResponse } from './contract/profiles.ts';
import type { SessionAuth } from './http/context.ts';
import { NotificationQueue } from './features/notifications/queue.ts';
import { requireMyProfile } from './features/relationships/myProfile.ts';
import { findSwipe, isBlockedEitherWay } from './features/relationships/repository.ts';
import type { SafetyService } from './features/safety/service.ts';
import type { PoolStore } from './features/search/candidatePool.ts';
import type { SearchService } from './features/search/service.ts';
import type { SwipeService } from './features/swipes/service.ts';

/**
 * An account's id and a profile's id are both plain numbers at run time, and a function given one where
 * the other is meant would quietly read the wrong row. These checks are types: `npm run typecheck` fails
 * if the brands are weakened (every `@ts-expect-error` below would then be unused, an error of its own).
 * Nothing in the arrow functions handed to `expectTypeOf` runs.
 */
describe('branded ids', () => {
  it('keeps a user id and a profile id apart, and a plain number out of both', () => {
    expectTypeOf<UserId>().not.toExtend<ProfileId>();
    expectTypeOf<ProfileId>().not.toExtend<UserId>();
    expectTypeOf<number>().not.toExtend<UserId>();
    expectTypeOf<number>().not.toExtend<ProfileId>();
    // Either is still a number wherever a number will do (arithmetic, JSON, a Map key).
    expectTypeOf<UserId>().toExtend<number>();
    expectTypeOf<ProfileId>().toExtend<number>();
  });

  it('gives the database rows and the contract one type per id (db/schema.ts spells it out again)', () => {
    expectTypeOf<RowUserId>().toEqualTypeOf<UserId>();
    expectTypeOf<RowProfileId>().toEqualTypeOf<ProfileId>();
  });

  it('brands ids where they enter: request parsing, database rows, the signed-in session', () => {
    expectTypeOf<z.output<typeof profileIdBody>['profile_id']>().toEqualTypeOf<ProfileId>();
    expectTypeOf<SessionAuth['userId']>().toEqualTypeOf<UserId>();
    expectTypeOf((db: Kysely<Database>) =>
      db.selectFrom('profiles').select(['id', 'user_id']).executeTakeFirstOrThrow(),
    ).returns.resolves.toEqualTypeOf<{
      id: ProfileId;
      user_id: UserId;
    }>();
    expectTypeOf((db: Kysely<Database>, user: UserId) =>
      // @ts-expect-error: profiles.id is a profile id, not the account's
      db.selectFrom('profiles').select('name').where('id', '=', user),
    ).toBeFunction();
    expectTypeOf((db: Kysely<Database>, profile: ProfileId) =>
      // @ts-expect-error: events go to an account, not a profile
      db.insertInto('events').values({ user_id: profile, type: 'match', payload: '{}', created_at: '' }),
    ).toBeFunction();
  });

  it("types the search result's user_id as the profile id it is (the spec's name notwithstanding)", () => {
    expectTypeOf<SearchResult['user_id']>().toEqualTypeOf<ProfileId>();
    expectTypeOf<SearchResult['profile_id']>().toEqualTypeOf<ProfileId>();
    expectTypeOf<OwnProfileResponse['id']>().toEqualTypeOf<ProfileId>();
    expectTypeOf<OwnProfileResponse['user_id']>().toEqualTypeOf<UserId>();
  });

  it('takes each id where it is meant, in the services and repositories people act through', () => {
    expectTypeOf<SwipeService['swipe']>().parameters.toEqualTypeOf<[UserId, ProfileId, boolean, (string | null)?]>();
    expectTypeOf<SwipeService['undo']>().parameter(0).toEqualTypeOf<UserId>();
    expectTypeOf<SafetyService['block']>().parameter(0).toEqualTypeOf<UserId>();
    expectTypeOf<SafetyService['block']>().parameter(1).toEqualTypeOf<ProfileId>();
    expectTypeOf<PoolStore['take']>().parameter(0).toEqualTypeOf<ProfileId>();
    expectTypeOf<SearchService['next']>().parameter(0).toEqualTypeOf<UserId>();
    expectTypeOf(requireMyProfile).parameter(1).toEqualTypeOf<UserId>();
    expectTypeOf<NotificationQueue['match']>().parameter(1).toEqualTypeOf<UserId>();
  });

  it('refuses one id where the other is meant', () => {
    expectTypeOf(
      (
        db: Kysely<Database>,
        swipes: SwipeService,
        safety: SafetyService,
        pools: PoolStore,
        user: UserId,
        profile: ProfileId,
      ) => {
        // @ts-expect-error: the one who likes is an account, the one liked a profile
        void swipes.swipe(profile, user, true);
        // @ts-expect-error: the one blocked is a profile
        void safety.block(user, user);
        // @ts-expect-error: search pools belong to profiles
        void pools.take(user, 'key');
        // @ts-expect-error: a profile is found by its account
        void requireMyProfile(db, profile);
        // @ts-expect-error: swipes are between profiles
        void findSwipe(db, user, profile);
        // @ts-expect-error: notifications go to an account
        void new NotificationQueue().match(db, profile, { profileId: profile, name: 'Anna' }, 1, new Date());
        // @ts-expect-error: a plain number is neither
        void isBlockedEitherWay(db, 1, 2);
      },
    ).toBeFunction();
  });

  it('changes nothing at run time: a parsed id is the number it was, and the bounds still hold', () => {
    expect(profileIdBody.parse({ profile_id: '12' })).toEqual({ profile_id: 12 });
    expect(userRowId('user').parse(7)).toBe(7);
    expect(profileRowId('profile_id').safeParse(maxRowId + 1).success).toBe(false);
    const card = {
      prompts: [],
      user_id: 3,
      profile_id: 3,
      name: 'A',
      age: 30,
      city: '',
      gender: 'Female',
      bio: '',
      distance: null,
      photo: '',
      active_recently: null,
      verified: false,
    };
    expect(searchResult.parse(card)).toEqual(card);
  });
});
