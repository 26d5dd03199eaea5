import { describe, expect, it } from 'vitest';
import { DavError } from '../../src/domain/dav-error.js';
import { parseTimeout } from '../../src/dav/dav-locks.js';
import { davName, destinationPath, parseDavPath, parseSuffixedName } from '../../src/dav/dav-paths.js';
import { IfHeaderError, parseIfHeader, submittedTokens } from '../../src/dav/if-header.js';
import { XmlReader, parseXml, serializeFragment } from '../../src/dav/xml.js';

describe('WebDAV paths', () => {
  it('decodes and NFC-normalises names', () => {
    expect(parseDavPath('/dav/')).toEqual([]);
    expect(parseDavPath('/dav')).toEqual([]);
    expect(parseDavPath('/dav/a%20b/caf%65%CC%81/?x=1')).toEqual(['a b', 'café']);
  });

  it.each(['/dav/..', '/dav/a/%2E%2E/b', '/dav/a%2Fb', '/dav/%00', '/dav/a#frag', '/other/x', '/dav/%E0%A4%A', '/dav/ lead'])(
    'refuses %s',
    (url) => {
      expect(() => parseDavPath(url)).toThrow(DavError);
    },
  );

  it('reads Destination as sent, URL or path', () => {
    const hosts = ['host:8080'];
    expect(destinationPath('http://host:8080/dav/a/b.txt', hosts)).toEqual(['a', 'b.txt']);
    expect(destinationPath('/dav/x', hosts)).toEqual(['x']);
    expect(() => destinationPath('http://host:8080/dav/a/../../etc', hosts)).toThrow(DavError);
    expect(() => destinationPath('relative/path', hosts)).toThrow(DavError);
    expect(() => destinationPath(undefined, hosts)).toThrow(DavError);
  });

  it('refuses a Destination on another server with 502, whatever its spelling of this one', () => {
    const status = (header: string, hosts: string[]) => {
      try {
        destinationPath(header, hosts);
        return 'ok';
      } catch (err) {
        return (err as DavError).status;
      }
    };
    expect(status('http://evil.example/dav/x', ['drive.example'])).toBe(502);
    expect(status('http://drive.example:8443/dav/x', ['drive.example'])).toBe(502);
    expect(status('ftp://drive.example/dav/x', ['drive.example'])).toBe(502);
    expect(status('http://drive.example.evil/dav/x', ['drive.example'])).toBe(502);
    expect(status('http://user@evil.example/dav/x', ['drive.example'])).toBe(502);
    expect(status('http:///dav/x', ['drive.example'])).toBe(400);
    // Case, default ports, userinfo and a TLS-ending proxy (https outside, http inside) change nothing.
    expect(status('HTTP://Drive.Example/dav/x', ['drive.example'])).toBe('ok');
    expect(status('https://drive.example:443/dav/x', ['drive.example'])).toBe('ok');
    expect(status('https://drive.example/dav/x', ['drive.example:443'])).toBe('ok');
    expect(status('http://drive.example/dav/x', ['drive.example:80'])).toBe('ok');
    expect(status('https://me@drive.example/dav/x', ['drive.example'])).toBe('ok');
    expect(status('http://[::1]:3000/dav/x', ['[::1]:3000'])).toBe('ok');
    expect(status('http://bücher.example/dav/x', ['xn--bcher-kva.example'])).toBe('ok');
    expect(status('http://drive.example/dav/x', ['127.0.0.1:3000', 'drive.example'])).toBe('ok');
    // A path alone is on the server that received it.
    expect(status('/dav/x', [])).toBe('ok');
  });

  it('suffixes later same-named items with their id, and reads the suffix back', () => {
    expect(davName('report.pdf', 'abcdefgh12345', true)).toBe('report.pdf');
    expect(davName('report.pdf', 'abcdefgh12345', false)).toBe('report (~abcdefgh).pdf');
    expect(davName('Photos', 'k3j4h5g6xx', false)).toBe('Photos (~k3j4h5g6)');
    expect(parseSuffixedName('report (~abcdefgh).pdf')).toEqual({ name: 'report.pdf', idPrefix: 'abcdefgh' });
    expect(parseSuffixedName('Photos (~k3j4h5g6)')).toEqual({ name: 'Photos', idPrefix: 'k3j4h5g6' });
    expect(parseSuffixedName('report.pdf')).toBeNull();
  });
});

describe('If header', () => {
  it('parses tagged and untagged lists with Not, tokens and entity tags', () => {
    const lists = parseIfHeader('<http://h/dav/a> (<opaquelocktoken:1> ["e1"]) (Not <DAV:no-lock>)');
    expect(lists).toEqual([
      {
        resource: 'http://h/dav/a',
        conditions: [
          { not: false, token: 'opaquelocktoken:1' },
          { not: false, etag: '"e1"' },
        ],
      },
      { resource: 'http://h/dav/a', conditions: [{ not: true, token: 'DAV:no-lock' }] },
    ]);
    expect([...submittedTokens(lists)]).toEqual(['opaquelocktoken:1']);
  });

  it.each(['', '(', '()', '(<a>', '(junk)', 'junk'])('refuses %j', (header) => {
    expect(() => parseIfHeader(header)).toThrow(IfHeaderError);
  });
});

describe('XML bodies', () => {
  it('keeps namespaces when a fragment is serialised again', () => {
    const root = parseXml('<a xmlns="urn:a" xmlns:b="urn:b"><b:c b:x="1">t &amp; u</b:c><d/></a>');
    expect(serializeFragment(root.children)).toBe('<c xmlns="urn:b" xmlns:a0="urn:b" a0:x="1">t &amp; u</c><d xmlns="urn:a"></d>');
  });

  it('parses a body given piece by piece, and stops at the element limit', () => {
    const whole = new XmlReader();
    for (const piece of ['<a xmlns="urn:a"><b', '/><c>t', 'ext</c></a>']) whole.write(piece);
    expect(serializeFragment(whole.close().children)).toBe('<b xmlns="urn:a"></b><c xmlns="urn:a">text</c>');

    const limited = new XmlReader(64, 3);
    limited.write('<a><b/><c/>');
    expect(() => limited.write('<d/>')).toThrow('at most 3 elements');
  });

  it('refuses document types, so no entity is ever expanded', () => {
    expect(() => parseXml('<!DOCTYPE a [<!ENTITY e "x">]><a>&e;</a>')).toThrow();
    expect(() => parseXml('<a>&undefined;</a>')).toThrow();
  });
});

describe('lock timeouts', () => {
  it('takes the first acceptable value, bounded to a week', () => {
    expect(parseTimeout(undefined)).toBe(3600);
    expect(parseTimeout('Second-60')).toBe(60);
    expect(parseTimeout('Infinite, Second-4100000000')).toBe(604800);
    expect(parseTimeout('Second-99999999999')).toBe(604800);
    expect(parseTimeout('bogus')).toBe(3600);
  });
});
