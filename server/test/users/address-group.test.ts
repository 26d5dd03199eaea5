import { describe, expect, it } from 'vitest';
import { addressGroupOf } from '../../src/security/address-group.js';

describe('client address groups', () => {
  it('keeps an IPv4 address, and reads an IPv4-mapped IPv6 address as that IPv4 address', () => {
    expect(addressGroupOf('203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroupOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressGroupOf('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const group = addressGroupOf('2001:db8:1:2::1');
    expect(group).toBe('2001:db8:1:2::/64');
    expect(addressGroupOf('2001:0DB8:0001:0002:ffff:eeee:dddd:cccc')).toBe(group);
    expect(addressGroupOf('2001:db8:1:2:0:0:0:99')).toBe(group);
    expect(addressGroupOf('2001:db8:1:3::1')).not.toBe(group);
    expect(addressGroupOf('fe80::1%eth0')).toBe('fe80::/64');
    expect(addressGroupOf('::1')).toBe('::/64');
  });

  it('keeps what is no address as given', () => {
    expect(addressGroupOf('unknown')).toBe('unknown');
    expect(addressGroupOf('')).toBe('');
  });
});
