import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'nimbus-metrics-config-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

describe('METRICS_TOKEN', () => {
  it('is off by default and blank means unset', () => {
    expect(loadConfig({}, cwd).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: '  ' }, cwd).metricsToken).toBeNull();
  });

  it('takes a token of 16 to 256 printable characters', () => {
    expect(loadConfig({ METRICS_TOKEN: ' abcdefghijklmnop-_.~ ' }, cwd).metricsToken).toBe('abcdefghijklmnop-_.~');
  });

  it.each(['short', 'has a space in it somewhere', 'x'.repeat(257), 'ünïcödé-tökén-1234'])('refuses %j with a clear message', (token) => {
    let problems: string[] = [];
    try {
      loadConfig({ METRICS_TOKEN: token }, cwd);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      problems = (err as ConfigError).problems;
    }
    expect(problems).toEqual(['METRICS_TOKEN: must be 16 to 256 printable characters without spaces']);
  });
});
