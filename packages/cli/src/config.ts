/**
 * Where the command line keeps its sign-in: `$XDG_CONFIG_HOME/kumo/config.json` (else `~/.config/kumo/config.json`),
 * readable by its owner only. KUMO_TOKEN and KUMO_API_URL (and --api-url) win over what the file says.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './errors.js';

/** The portal `npm start` serves on this machine (README); a deployed portal is named with --api-url or KUMO_API_URL. */
export const DEFAULT_API_URL = 'http://localhost:8080';

export interface StoredConfig {
  api_url?: string;
  token?: string;
}

export interface Settings {
  apiUrl: string;
  token: string | undefined;
  /** Where the token came from, for the messages that name it. */
  tokenSource: 'KUMO_TOKEN' | 'config' | 'none';
}

type Env = Record<string, string | undefined>;

export function configPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'kumo', 'config.json');
}

export function readConfig(path: string): StoredConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, EXIT.usage);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    const { api_url, token } = parsed as Record<string, unknown>;
    return { api_url: typeof api_url === 'string' ? api_url : undefined, token: typeof token === 'string' ? token : undefined };
  } catch {
    throw new CliError(`${path} is not valid JSON: fix it or remove it and run kumo login again`, EXIT.usage);
  }
}

/** Writes the file with mode 600 (its folder 700), whatever the umask, and tightens a file that was wider. */
export function writeConfig(path: string, config: StoredConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function removeConfig(path: string): boolean {
  try {
    rmSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new CliError(`cannot remove ${path}: ${(error as Error).message}`, EXIT.usage);
  }
}

/** The portal's address as given: an http(s) URL, without a trailing slash. */
export function normaliseApiUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new CliError(`the API URL "${value}" is not a URL (e.g. https://portal.example.com)`, EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(`the API URL must start with http:// or https:// (not ${url.protocol})`, EXIT.usage);
  }
  return url.toString().replace(/\/+$/, '');
}

/** --api-url, else KUMO_API_URL, else the file, else the local portal; KUMO_TOKEN, else the file's token. */
export function resolveSettings(env: Env, stored: StoredConfig, apiUrlOption?: string): Settings {
  const apiUrl = normaliseApiUrl(apiUrlOption ?? (env.KUMO_API_URL?.trim() || stored.api_url || DEFAULT_API_URL));
  const fromEnv = env.KUMO_TOKEN?.trim();
  if (fromEnv) return { apiUrl, token: fromEnv, tokenSource: 'KUMO_TOKEN' };
  if (stored.token) return { apiUrl, token: stored.token, tokenSource: 'config' };
  return { apiUrl, token: undefined, tokenSource: 'none' };
}
