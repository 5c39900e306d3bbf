import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configPath, DEFAULT_API_URL, readConfig, removeConfig, resolveSettings, writeConfig } from './config.js';
import type { CliError } from './errors.js';
import { EXIT } from './errors.js';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'kumo-config-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the config file', () => {
  it('lives under XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configPath({ XDG_CONFIG_HOME: '/x', HOME: '/home/a' })).toBe('/x/kumo/config.json');
    expect(configPath({ HOME: '/home/a' })).toBe('/home/a/.config/kumo/config.json');
    expect(configPath({ XDG_CONFIG_HOME: ' ', HOME: '/home/a' })).toBe('/home/a/.config/kumo/config.json');
  });

  it('is written with mode 600 in a folder of mode 700, whatever the umask, and a wider file is tightened', () => {
    const path = join(dir, 'kumo', 'config.json');
    const umask = process.umask(0);
    try {
      writeConfig(path, { api_url: 'https://portal.example.com', token: 'kumo_pat_x' });
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, 'kumo')).mode & 0o777).toBe(0o700);
      writeFileSync(path, '{}', { mode: 0o644 });
      writeConfig(path, { token: 'kumo_pat_y' });
      expect(statSync(path).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(umask);
    }
    expect(readConfig(path)).toEqual({ api_url: undefined, token: 'kumo_pat_y' });
  });

  it('reads a missing file as empty, refuses a broken one with a usage error, and is removed once', () => {
    const path = join(dir, 'config.json');
    expect(readConfig(path)).toEqual({});
    writeFileSync(path, '{ not json');
    const error = (() => {
      try {
        readConfig(path);
      } catch (caught) {
        return caught as CliError;
      }
    })();
    expect(error?.exitCode).toBe(EXIT.usage);
    expect(error?.message).toContain('not valid JSON');
    expect(removeConfig(path)).toBe(true);
    expect(removeConfig(path)).toBe(false);
  });
});

describe('the settings', () => {
  const stored = { api_url: 'https://saved.example.com', token: 'kumo_pat_saved' };

  it('take --api-url over KUMO_API_URL over the file over the local portal', () => {
    expect(resolveSettings({}, {}).apiUrl).toBe(DEFAULT_API_URL);
    expect(resolveSettings({}, stored).apiUrl).toBe('https://saved.example.com');
    expect(resolveSettings({ KUMO_API_URL: 'https://env.example.com/' }, stored).apiUrl).toBe('https://env.example.com');
    expect(resolveSettings({ KUMO_API_URL: 'https://env.example.com' }, stored, 'http://127.0.0.1:9/').apiUrl).toBe('http://127.0.0.1:9');
  });

  it('take KUMO_TOKEN over the saved token, and say where it came from', () => {
    expect(resolveSettings({ KUMO_TOKEN: 'kumo_pat_env' }, stored)).toMatchObject({ token: 'kumo_pat_env', tokenSource: 'KUMO_TOKEN' });
    expect(resolveSettings({ KUMO_TOKEN: '' }, stored)).toMatchObject({ token: 'kumo_pat_saved', tokenSource: 'config' });
    expect(resolveSettings({}, {})).toMatchObject({ token: undefined, tokenSource: 'none' });
  });

  it('refuse an address that is not http(s) as a usage error', () => {
    expect(() => resolveSettings({}, {}, 'ftp://portal')).toThrow(/http:\/\/ or https:\/\//);
    expect(() => resolveSettings({}, {}, 'portal')).toThrow(/not a URL/);
  });
});
