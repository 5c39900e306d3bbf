import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * The architecture's arrows are enforced by `npm run lint` (eslint.config.js, rule kumo/boundaries). These
 * snippets sit, by file path, where a module, adapter, feature or shared file would: a crossing must fail.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const RULE = 'kumo/boundaries';

let boundariesOnly: ESLint;

beforeAll(async () => {
  const project = new ESLint({ cwd: root });
  // The real configuration's rule and plugin, without type information: fixtures are not in a tsconfig.
  const config = (await project.calculateConfigForFile('apps/api/src/modules/users/users.service.ts')) as Linter.Config;
  boundariesOnly = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts', '**/*.tsx'],
        languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
        plugins: config.plugins,
        rules: { [RULE]: 'error' },
      },
    ],
  });
});

async function crossings(filePath: string, code: string): Promise<string[]> {
  const [result] = await boundariesOnly.lintText(code, { filePath: `${root}${filePath}` });
  expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe('the lint configuration', () => {
  it('applies the boundaries rule as an error to API and console sources', async () => {
    const project = new ESLint({ cwd: root });
    for (const file of [
      'apps/api/src/modules/users/users.service.ts',
      'apps/api/src/services.ts',
      'apps/console/src/features/home/home-page.tsx',
    ]) {
      const config = (await project.calculateConfigForFile(file)) as Linter.Config;
      expect(config.rules?.[RULE], file).toEqual([2]);
    }
  });
});

describe('API boundaries', () => {
  const service = 'apps/api/src/modules/users/users.service.ts';

  it("refuses a module reaching into another module's repository, routes or service file", async () => {
    expect(await crossings(service, "import { createAuthRepository } from '../auth/auth.repository.js';")).toEqual([
      "Use module 'auth' only through its public face, modules/auth/index.ts (not auth.repository).",
    ]);
    expect(await crossings(service, "import { sendTokens } from '../auth/auth.routes.js';")).toHaveLength(1);
    expect(await crossings(service, "export { ledgerJobs } from '../ledger/ledger.service.js';")).toHaveLength(1);
    expect(await crossings(service, "const routes = await import('../billing/billing.routes.js');")).toHaveLength(1);
  });

  it('lets a module use another through its index, and its own files freely', async () => {
    const code = [
      "import type { AuthService } from '../auth/index.js';",
      "import { createMailService } from '../mail/index.js';",
      "import { createUsersRepository } from './users.repository.js';",
      "import { errorResponses } from '../../http/error-responses.js';",
      "import { keyedHash } from '../../lib/crypto.js';",
    ].join('\n');
    expect(await crossings(service, code)).toEqual([]);
  });

  it('refuses adapters importing modules, even through an index', async () => {
    const adapter = 'apps/api/src/adapters/payments/stripe-gateway.ts';
    expect(await crossings(adapter, "import type { Ledger } from '../../modules/ledger/index.js';")).toEqual([
      'Adapters never import modules (here modules/ledger): pass what they need in from services.ts.',
    ]);
  });

  it('lets the wiring reach modules only through their index', async () => {
    expect(await crossings('apps/api/src/services.ts', "import { createMailService } from './modules/mail/index.js';")).toEqual([]);
    expect(await crossings('apps/api/src/app.ts', "import { usersRoutes } from './modules/users/users.routes.js';")).toHaveLength(1);
    expect(
      await crossings('apps/api/src/demo/seed.ts', "import { createAuthRepository } from '../modules/auth/auth.repository.js';"),
    ).toHaveLength(1);
  });

  it("refuses modules and shared layers reaching inside an adapter, past its index (its port)", async () => {
    const clusters = 'apps/api/src/modules/clusters/clusters.service.ts';
    expect(await crossings(clusters, "import { parseCidr } from '../../adapters/cloud/template/cidr.js';")).toEqual([
      "Use adapter 'cloud' only through its port, adapters/cloud/index.ts (not template/cidr).",
    ]);
    const billing = 'apps/api/src/modules/billing/billing.service.ts';
    expect(await crossings(billing, "import { SANDBOX_EVENTS_QUEUE } from '../../adapters/payments/sandbox/sandbox-gateway.js';")).toHaveLength(1);
    expect(await crossings(billing, "import type { PaymentGateway } from '../../adapters/payments/payment-gateway.js';")).toHaveLength(1);
    expect(await crossings('apps/api/src/http/auth-guard.ts', "import { createSmtpTransport } from '../adapters/mail/mail-transport.js';")).toHaveLength(1);
    expect(
      await crossings('apps/api/src/adapters/payments/stripe-gateway.ts', "import { parseCidr } from '../cloud/template/cidr.js';"),
    ).toHaveLength(1);
  });

  it('lets modules use an adapter through its index, an adapter its own files, and the wiring choose drivers', async () => {
    const clusters = 'apps/api/src/modules/clusters/clusters.service.ts';
    expect(await crossings(clusters, "import { parseCidr, type CloudProvisioner } from '../../adapters/cloud/index.js';")).toEqual([]);
    expect(await crossings(clusters, "import { SANDBOX_EVENTS_QUEUE } from '../../adapters/payments';")).toEqual([]);
    expect(await crossings('apps/api/src/adapters/cloud/aws/aws-provisioner.ts', "import { parseCidr } from '../template/cidr.js';")).toEqual([]);
    expect(await crossings('apps/api/src/app.ts', "import { sandboxCheckoutRoutes } from './adapters/payments/sandbox/sandbox.routes.js';")).toEqual([]);
    expect(
      await crossings('apps/api/src/scripts/cfn-lint-template.ts', "import { renderClusterTemplate } from '../adapters/cloud/template/cluster-template.js';"),
    ).toEqual([]);
  });

  it('lets shared layers import only types from a module index', async () => {
    const guard = 'apps/api/src/http/auth-guard.ts';
    expect(await crossings(guard, "import type { AccessClaims } from '../modules/auth/index.js';")).toEqual([]);
    expect(await crossings(guard, "import { authRoutes } from '../modules/auth/index.js';")).toHaveLength(1);
    expect(await crossings('apps/api/src/lib/crypto.ts', "import { keyedHash } from '../modules/auth/secrets.js';")).toHaveLength(1);
  });
});

describe('console boundaries', () => {
  const home = 'apps/console/src/features/home/subscriptions-summary.tsx';

  it('refuses a feature importing another feature', async () => {
    expect(await crossings(home, "import { useSubscriptions } from '../subscriptions/api/subscription-list';")).toEqual([
      'Features never import other features (here features/subscriptions): compose them in app/, or move the shared piece to components/ or lib/.',
    ]);
  });

  it('refuses a feature importing app/, except in its tests', async () => {
    expect(await crossings(home, "import { routes } from '../../app/routes';")).toHaveLength(1);
    expect(await crossings('apps/console/src/features/home/home-page.test.tsx', "import { routes } from '../../app/routes';")).toEqual([]);
  });

  it('refuses components/ and lib/ importing features or app/', async () => {
    expect(
      await crossings('apps/console/src/components/page-header.tsx', "import { HomePage } from '../features/home/home-page';"),
    ).toHaveLength(1);
    expect(await crossings('apps/console/src/lib/format.ts', "import { queryClient } from '../app/query-client';")).toHaveLength(1);
  });

  it('lets features use components/, lib/ and themselves, and app/ compose features', async () => {
    const code = [
      "import { PageHeader } from '../../components/page-header';",
      "import { api } from '../../lib/api-client';",
      "import { MinBalanceBanner } from './min-balance-banner';",
    ].join('\n');
    expect(await crossings(home, code)).toEqual([]);
    expect(await crossings('apps/console/src/app/routes.tsx', "import { HomePage } from '../features/home/home-page';")).toEqual([]);
  });
});
