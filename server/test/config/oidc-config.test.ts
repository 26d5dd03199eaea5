import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(path.join(os.tmpdir(), 'nimbus-oidc-config-'));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, cwd);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

const client = { OIDC_CLIENT_ID: 'nimbus', OIDC_CLIENT_SECRET: 'secret' };

describe('single sign-on configuration', () => {
  it('is off without the variables', () => {
    expect(loadConfig({}, cwd).oidc).toBeNull();
  });

  it('takes all three, with the default button label or a chosen one', () => {
    expect(loadConfig({ OIDC_ISSUER: 'https://id.example.com/realms/home', ...client }, cwd).oidc).toEqual({
      issuer: 'https://id.example.com/realms/home',
      clientId: 'nimbus',
      clientSecret: 'secret',
      buttonLabel: 'Sign in with SSO',
    });
    const labelled = loadConfig({ OIDC_ISSUER: 'https://id.example.com', ...client, OIDC_BUTTON_LABEL: 'Sign in with Authentik' }, cwd);
    expect(labelled.oidc?.buttonLabel).toBe('Sign in with Authentik');
  });

  it('refuses some of the three without the others', () => {
    const problem = [expect.stringMatching(/^OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: set all three/)];
    expect(problemsOf({ OIDC_ISSUER: 'https://id.example.com' })).toEqual(problem);
    expect(problemsOf(client)).toEqual(problem);
    expect(problemsOf({ OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'nimbus' })).toEqual(problem);
  });

  it('refuses a plain-HTTP issuer unless it is on a loopback address', () => {
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:8080/realms/x', 'http://[::1]:9000'])
      expect(loadConfig({ OIDC_ISSUER: issuer, ...client }, cwd).oidc?.issuer).toBe(issuer);
    for (const issuer of ['http://id.example.com', 'http://192.168.1.10:9000', 'ftp://id.example.com', 'not a url'])
      expect(problemsOf({ OIDC_ISSUER: issuer, ...client })).toEqual([expect.stringMatching(/^OIDC_ISSUER: /)]);
  });

  it('refuses a button label longer than 60 characters', () => {
    expect(problemsOf({ OIDC_ISSUER: 'https://id.example.com', ...client, OIDC_BUTTON_LABEL: 'x'.repeat(61) })).toEqual([
      expect.stringMatching(/^OIDC_BUTTON_LABEL: /),
    ]);
  });
});
