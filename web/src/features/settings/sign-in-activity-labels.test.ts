import type { ActivityEventDto } from '@nimbus/common';
import { describe, expect, it } from 'vitest';
import { describeActivity } from './activity-labels';

const signIn = (details: ActivityEventDto['details']): ActivityEventDto => ({
  id: 'x',
  type: 'sign-in',
  at: new Date(0).toISOString(),
  clientAddress: null,
  userAgent: null,
  details,
});

describe('sign-in activity labels', () => {
  it('says when a sign-in came through single sign-on', () => {
    expect(describeActivity(signIn({ kind: 'oidc' }))).toBe('Signed in with single sign-on');
    expect(describeActivity(signIn(null))).toBe('Signed in');
  });
});
