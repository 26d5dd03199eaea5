import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hrefs, startDavApp, type DavAccount, type DavHarness, type DavResponse } from './dav-support.js';

/** A PROPFIND naming `names` in one namespace of their own, each as often as it is listed. */
function propfindOf(names: string[], ns = 'urn:x'): string {
  return `<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:u="${ns}"><D:prop>${names.map((n) => `<u:${n}/>`).join('')}</D:prop></D:propfind>`;
}

const distinct = (count: number) => Array.from({ length: count }, (_, i) => `p${i}`);

function occurrences(text: string, fragment: string): number {
  return text.split(fragment).length - 1;
}

/** Runs `request` while watching the event loop and the process's memory. */
async function measured(
  request: () => Promise<DavResponse>,
): Promise<{ response: DavResponse; worstDelayMs: number; rssGrowthMiB: number }> {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  delay.enable();
  try {
    const response = await request();
    return { response, worstDelayMs: delay.max / 1e6, rssGrowthMiB: (peak - before) / 2 ** 20 };
  } finally {
    delay.disable();
    clearInterval(sampler);
  }
}

describe('PROPFIND limits', () => {
  let h: DavHarness;
  let me: DavAccount;
  beforeAll(async () => {
    h = await startDavApp();
    me = await h.account();
    await me.dav.put('/dav/one.txt', 'one');
  });
  afterAll(() => h.close());

  it('refuses a PROPFIND that names more than 256 distinct properties, with a message saying so', async () => {
    const refused = await me.dav.propfind('/dav/one.txt', '0', propfindOf(distinct(257)));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('at most 256 distinct properties');
    const include = `<D:propfind xmlns:D="DAV:" xmlns:u="urn:x"><D:allprop/><D:include>${distinct(257)
      .map((n) => `<u:${n}/>`)
      .join('')}</D:include></D:propfind>`;
    expect((await me.dav.propfind('/dav/one.txt', '0', include)).status).toBe(400);
  });

  it('takes 256 names however often each is repeated, and answers each once', async () => {
    const names = distinct(256);
    const response = await me.dav.propfind('/dav/one.txt', '0', propfindOf([...names, ...names, ...names.slice(0, 100)]));
    expect(response.status).toBe(207);
    for (const name of names) expect(occurrences(response.text, `<x:${name} xmlns:x="urn:x"/>`), name).toBe(1);
  });

  it('refuses names that together run to megabytes', async () => {
    // Each name is echoed for every item of a listing: 200 names of 4 KiB would be 800 KB per item.
    const long = Array.from({ length: 200 }, (_, i) => `n${i}${'a'.repeat(4096)}`);
    const refused = await me.dav.propfind('/dav/one.txt', '0', propfindOf(long));
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('may total at most');
  });

  describe('on a folder of 300 items', () => {
    const ITEMS = 300;
    beforeAll(async () => {
      await me.dav.request('MKCOL', '/dav/wide/');
      for (let i = 0; i < ITEMS; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, ITEMS - i) }, (_, j) =>
            me.dav.request('MKCOL', `/dav/wide/d${String(i + j).padStart(3, '0')}/`),
          ),
        );
      }
    });

    it('refuses the 100,000-name body of the review at once, without holding the server', async () => {
      const body = propfindOf(Array.from({ length: 100_000 }, (_, i) => `a${i % 10}`));
      expect(body.length).toBeGreaterThan(700_000);
      const { response, worstDelayMs, rssGrowthMiB } = await measured(() => me.dav.propfind('/dav/wide/', '1', body));
      expect(response.status).toBe(400);
      expect(worstDelayMs).toBeLessThan(500);
      expect(rssGrowthMiB).toBeLessThan(150);
    });

    it('answers 256 names for every item, one item at a time', async () => {
      const { response, worstDelayMs, rssGrowthMiB } = await measured(() => me.dav.propfind('/dav/wide/', '1', propfindOf(distinct(256))));
      expect(response.status).toBe(207);
      expect(hrefs(response.text)).toHaveLength(ITEMS + 1);
      expect(occurrences(response.text, '<x:p255 xmlns:x="urn:x"/>')).toBe(ITEMS + 1);
      expect(worstDelayMs).toBeLessThan(500);
      expect(rssGrowthMiB).toBeLessThan(150);
    });
  });

  describe('allprop and dead properties', () => {
    const set = (props: string) =>
      `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop>${props}</D:prop></D:set></D:propertyupdate>`;

    it('leaves a huge value out of allprop; propname lists it and a PROPFIND naming it gets it', async () => {
      await me.dav.put('/dav/huge.txt', 'h');
      const huge = 'v'.repeat(60 * 1024);
      const patched = await me.dav.request('PROPPATCH', '/dav/huge.txt', { body: set(`<Z:small>tiny</Z:small><Z:huge>${huge}</Z:huge>`) });
      expect(patched.status).toBe(207);
      expect(patched.text).not.toContain('507');

      const all = await me.dav.propfind('/dav/huge.txt', '0');
      expect(all.status).toBe(207);
      expect(all.text).toContain('<x:small xmlns:x="urn:z">tiny</x:small>');
      expect(all.text).not.toContain('<x:huge');
      expect(all.text.length).toBeLessThan(8 * 1024);

      const names = await me.dav.propfind('/dav/huge.txt', '0', '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>');
      expect(names.text).toContain('<x:huge xmlns:x="urn:z"/>');
      expect(names.text.length).toBeLessThan(8 * 1024);

      const named = await me.dav.propfind('/dav/huge.txt', '0', propfindOf(['huge'], 'urn:z'));
      expect(named.text).toContain(`<x:huge xmlns:x="urn:z">${huge}</x:huge>`);
      const included = await me.dav.propfind(
        '/dav/huge.txt',
        '0',
        '<D:propfind xmlns:D="DAV:" xmlns:Z="urn:z"><D:allprop/><D:include><Z:huge/></D:include></D:propfind>',
      );
      expect(included.text).toContain(`<x:huge xmlns:x="urn:z">${huge}</x:huge>`);
    });

    it('gives at most 64 KiB of dead property values per item to allprop', async () => {
      await me.dav.put('/dav/many.txt', 'm');
      const value = 'w'.repeat(4000);
      for (let batch = 0; batch < 4; batch++) {
        const props = Array.from({ length: 10 }, (_, i) => `<Z:q${batch * 10 + i}>${value}</Z:q${batch * 10 + i}>`).join('');
        expect((await me.dav.request('PROPPATCH', '/dav/many.txt', { body: set(props) })).status).toBe(207);
      }
      const all = await me.dav.propfind('/dav/many.txt', '0');
      const shown = occurrences(all.text, value);
      expect(shown).toBe(Math.floor((64 * 1024) / value.length));
      expect(all.text.length).toBeLessThan(72 * 1024);
      // Every one is still there, by name.
      const named = await me.dav.propfind(
        '/dav/many.txt',
        '0',
        propfindOf(
          distinct(40).map((n) => n.replace('p', 'q')),
          'urn:z',
        ),
      );
      expect(occurrences(named.text, value)).toBe(40);
    });

    it('lists many items whose shown values run to megabytes, or to hundreds of names, completely', async () => {
      const big = 'b'.repeat(60 * 1024);
      await me.dav.request('MKCOL', '/dav/heavy/');
      for (let i = 0; i < 10; i++) {
        await me.dav.put(`/dav/heavy/f${i}.txt`, 'f');
        const props = Array.from({ length: 8 }, (_, j) => `<Z:h${j}>${big}</Z:h${j}>`).join('');
        expect((await me.dav.request('PROPPATCH', `/dav/heavy/f${i}.txt`, { body: set(props) })).status).toBe(207);
      }
      const hs = Array.from({ length: 8 }, (_, j) => `h${j}`);
      const heavy = await me.dav.propfind('/dav/heavy/', '1', propfindOf(hs, 'urn:z'));
      expect(occurrences(heavy.text, big)).toBe(80);
      // allprop shows none of them, and stays small.
      const all = await me.dav.propfind('/dav/heavy/', '1');
      expect(hrefs(all.text)).toHaveLength(11);
      expect(all.text).not.toContain(big);
      expect(all.text.length).toBeLessThan(64 * 1024);

      await me.dav.request('MKCOL', '/dav/named/');
      const names = distinct(256);
      for (let i = 0; i < 3; i++) {
        await me.dav.put(`/dav/named/f${i}.txt`, 'f');
        const props = names.map((n) => `<Z:${n}>v${i}</Z:${n}>`).join('');
        expect((await me.dav.request('PROPPATCH', `/dav/named/f${i}.txt`, { body: set(props) })).status).toBe(207);
      }
      const named = await me.dav.propfind('/dav/named/', '1', propfindOf(names, 'urn:z'));
      for (let i = 0; i < 3; i++) expect(occurrences(named.text, `>v${i}</x:`)).toBe(256);
      const listed = await me.dav.propfind('/dav/named/', '1', '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>');
      expect(occurrences(listed.text, '<x:p255 xmlns:x="urn:z"/>')).toBe(3);
    });

    it('refuses a PROPPATCH of more than 512 changes before writing any', async () => {
      await me.dav.put('/dav/patched.txt', 'p');
      const removes = Array.from({ length: 513 }, (_, i) => `<Z:r${i}/>`).join('');
      const body = `<D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:z"><D:set><D:prop><Z:kept>1</Z:kept></D:prop></D:set><D:remove><D:prop>${removes}</D:prop></D:remove></D:propertyupdate>`;
      const refused = await me.dav.request('PROPPATCH', '/dav/patched.txt', { body });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('at most 512');
      expect((await me.dav.propfind('/dav/patched.txt', '0')).text).not.toContain('kept');
    });
  });
});
