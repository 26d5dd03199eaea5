import type { ActivityEventDto } from '@nimbus/common';
import { describe, expect, it } from 'vitest';
import { describeActivity } from './activity-labels';

const event = (type: ActivityEventDto['type'], details: ActivityEventDto['details']): ActivityEventDto => ({
  id: 'x',
  type,
  at: new Date(0).toISOString(),
  clientAddress: null,
  userAgent: null,
  details,
});

describe('invitation activity labels', () => {
  it('names the invited address, and says how an account was made', () => {
    expect(describeActivity(event('invitation-sent', { name: 'guest@example.com' }))).toBe('Invitation sent to guest@example.com');
    expect(describeActivity(event('invitation-revoked', { name: 'guest@example.com' }))).toBe('Invitation to guest@example.com revoked');
    expect(describeActivity(event('invitation-sent', null))).toBe('Invitation sent to someone');
    expect(describeActivity(event('account-created-by-invitation', null))).toBe('Account created with an invitation');
  });
});
