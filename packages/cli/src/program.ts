/** The `kumo` command tree: one module per area under commands/. */
import { Command } from 'commander';
import { API_VERSION, CLI_VERSION } from './api.js';
import type { Context } from './context.js';
import { registerBudgets } from './commands/budgets.js';
import { registerClusters } from './commands/clusters.js';
import { registerSession } from './commands/session.js';
import { registerStatements } from './commands/statements.js';
import { registerSubscriptions } from './commands/subscriptions.js';
import { registerUsage } from './commands/usage.js';
import { registerWebhooks } from './commands/webhooks.js';

const FOOTER = `
Sign in once with a personal API token (made in the console under Users → API tokens):
  echo "$TOKEN" | kumo login --token --api-url https://portal.example.com
KUMO_TOKEN and KUMO_API_URL, when set, are used instead of the saved ones.

Exit status: 0 done, 1 the portal refused or failed the call, 2 a usage error,
3 the portal could not be reached, 4 not signed in.`;

export function buildProgram(context: Context): Command {
  const program = new Command('kumo')
    .description('Kumo Cloud from the command line: subscriptions, clusters, usage, statements, budgets and webhooks')
    .version(`${CLI_VERSION} (API version ${API_VERSION})`, '-V, --version')
    .option('--api-url <url>', 'the portal, e.g. https://portal.example.com (default: KUMO_API_URL, the saved one, http://localhost:8080)')
    .addHelpText('after', FOOTER)
    .showHelpAfterError('(add --help for usage)')
    .showSuggestionAfterError(true);
  registerSession(program, context);
  registerSubscriptions(program, context);
  registerClusters(program, context);
  registerUsage(program, context);
  registerStatements(program, context);
  registerBudgets(program, context);
  registerWebhooks(program, context);
  return program;
}
