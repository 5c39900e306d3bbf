/** What every command is handed: its streams and environment, the settings, the API client and the output mode. */
import { apiClient, type KumoClient } from './api.js';
import { configPath, readConfig, resolveSettings, type Settings } from './config.js';
import { CliError, EXIT } from './errors.js';

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Tests hand a fake; otherwise the global fetch. */
  fetch?: typeof fetch;
}

export interface Context {
  io: Io;
  /** The config file's path. */
  configFile: string;
  settings(): Settings;
  /** The client with the token; refuses with exit status 4 when there is none. */
  client(): KumoClient;
  /** `--json`: the API's JSON as it came; else the readable form. */
  print<T>(json: boolean, value: T, readable: (value: T) => string): void;
}

export function createContext(io: Io, apiUrlOption: () => string | undefined): Context {
  const configFile = configPath(io.env);
  const settings = () => resolveSettings(io.env, readConfig(configFile), apiUrlOption());
  return {
    io,
    configFile,
    settings,
    client() {
      const { apiUrl, token } = settings();
      if (!token) throw new CliError('not signed in: run kumo login --token, or set KUMO_TOKEN', EXIT.signedOut);
      return apiClient({ apiUrl, token, fetch: io.fetch });
    },
    print(json, value, readable) {
      io.stdout(json ? `${JSON.stringify(value, null, 2)}\n` : readable(value));
    },
  };
}
