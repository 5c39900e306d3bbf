/** `kumo login --token` and `kumo logout`: the personal API token kept in the config file. */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { answer, apiClient } from '../api.js';
import { normaliseApiUrl, readConfig, removeConfig, writeConfig } from '../config.js';
import type { Context, Io } from '../context.js';
import { CliError, EXIT } from '../errors.js';

const TOKEN = /^kumo_pat_[0-9A-Za-z]{43}$/;

/** The token from standard input: piped (`… | kumo login --token`), or typed at a prompt that does not echo it. */
async function readToken(io: Io): Promise<string> {
  const interactive = io.stdin.isTTY === true;
  if (interactive) io.stderr('API token (kumo_pat_…, made in the console under Users → API tokens): ');
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const lines = createInterface({ input: io.stdin, output: interactive ? silent : undefined, terminal: interactive });
  try {
    for await (const line of lines) return line.trim();
    return '';
  } finally {
    lines.close();
    if (interactive) io.stderr('\n');
  }
}

export function registerSession(program: Command, context: Context): void {
  program
    .command('login')
    .description('Sign in with a personal API token: checks it with the portal, then keeps it in the config file (mode 600)')
    .option('--token', 'read the token from standard input, or prompt for it (the only way to sign in for now)')
    .addHelpText(
      'after',
      '\nExamples:\n  echo "$TOKEN" | kumo login --token --api-url https://portal.example.com\n  kumo login --token   # then paste it',
    )
    .action(async () => {
      const token = await readToken(context.io);
      if (!TOKEN.test(token)) {
        throw new CliError('that is not a personal API token (kumo_pat_ followed by 43 letters and digits)', EXIT.usage);
      }
      const { apiUrl } = context.settings();
      const client = apiClient({ apiUrl, token, fetch: context.io.fetch });
      const subscriptions = await answer(client.GET('/api/subscription/list'));
      const stored = readConfig(context.configFile);
      writeConfig(context.configFile, { ...stored, api_url: normaliseApiUrl(apiUrl), token });
      const count = `${subscriptions.length} subscription${subscriptions.length === 1 ? '' : 's'}`;
      context.io.stdout(`Signed in to ${apiUrl} (${count}). The token is kept in ${context.configFile}.\n`);
      if (context.io.env.KUMO_TOKEN) context.io.stderr('Note: KUMO_TOKEN is set and is used instead of the saved token.\n');
    });

  program
    .command('logout')
    .description('Forget the saved token (it stays valid until it expires or is revoked in the console)')
    .action(() => {
      const stored = readConfig(context.configFile);
      if (!stored.token) {
        context.io.stdout('Not signed in: no token is saved.\n');
      } else if (stored.api_url) {
        writeConfig(context.configFile, { api_url: stored.api_url });
        context.io.stdout(`Signed out: the token is removed from ${context.configFile}.\n`);
      } else {
        removeConfig(context.configFile);
        context.io.stdout(`Signed out: ${context.configFile} is removed.\n`);
      }
      context.io.stdout('To revoke the token itself, delete it in the console under Users → API tokens.\n');
      if (context.io.env.KUMO_TOKEN) context.io.stderr('Note: KUMO_TOKEN is still set in this shell.\n');
    });
}
