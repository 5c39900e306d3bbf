import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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

const CYCLES = 'kumo-cycles/import-cycles';

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

  it('applies the import-circle rule as an error to API, console and contract sources', async () => {
    const project = new ESLint({ cwd: root });
    for (const file of [
      'apps/api/src/modules/clusters/clusters.service.ts',
      'apps/console/src/features/home/home-page.tsx',
      'packages/contract/src/index.ts',
    ]) {
      const config = (await project.calculateConfigForFile(file)) as Linter.Config;
      expect(config.rules?.[CYCLES], file).toEqual([2]);
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

  it('refuses modules and shared layers reaching inside an adapter, past its index (its port)', async () => {
    const clusters = 'apps/api/src/modules/clusters/clusters.service.ts';
    expect(await crossings(clusters, "import { parseCidr } from '../../adapters/cloud/template/cidr.js';")).toEqual([
      "Use adapter 'cloud' only through its port, adapters/cloud/index.ts (not template/cidr).",
    ]);
    const billing = 'apps/api/src/modules/billing/billing.service.ts';
    expect(
      await crossings(billing, "import { SANDBOX_EVENTS_QUEUE } from '../../adapters/payments/sandbox/sandbox-gateway.js';"),
    ).toHaveLength(1);
    expect(await crossings(billing, "import type { PaymentGateway } from '../../adapters/payments/payment-gateway.js';")).toHaveLength(1);
    expect(
      await crossings('apps/api/src/http/auth-guard.ts', "import { createSmtpTransport } from '../adapters/mail/mail-transport.js';"),
    ).toHaveLength(1);
    expect(
      await crossings('apps/api/src/adapters/payments/stripe-gateway.ts', "import { parseCidr } from '../cloud/template/cidr.js';"),
    ).toHaveLength(1);
  });

  it('lets modules use an adapter through its index, an adapter its own files, and the wiring choose drivers', async () => {
    const clusters = 'apps/api/src/modules/clusters/clusters.service.ts';
    expect(await crossings(clusters, "import { parseCidr, type CloudProvisioner } from '../../adapters/cloud/index.js';")).toEqual([]);
    expect(await crossings(clusters, "import { SANDBOX_EVENTS_QUEUE } from '../../adapters/payments';")).toEqual([]);
    expect(
      await crossings('apps/api/src/adapters/cloud/aws/aws-provisioner.ts', "import { parseCidr } from '../template/cidr.js';"),
    ).toEqual([]);
    expect(
      await crossings('apps/api/src/app.ts', "import { sandboxCheckoutRoutes } from './adapters/payments/sandbox/sandbox.routes.js';"),
    ).toEqual([]);
    expect(
      await crossings(
        'apps/api/src/scripts/cfn-lint-template.ts',
        "import { renderClusterTemplate } from '../adapters/cloud/template/cluster-template.js';",
      ),
    ).toEqual([]);
  });

  it('lets shared layers import only types from a module index', async () => {
    const guard = 'apps/api/src/http/auth-guard.ts';
    expect(await crossings(guard, "import type { AccessClaims } from '../modules/auth/index.js';")).toEqual([]);
    expect(await crossings(guard, "import { authRoutes } from '../modules/auth/index.js';")).toHaveLength(1);
    expect(await crossings('apps/api/src/lib/crypto.ts', "import { keyedHash } from '../modules/auth/secrets.js';")).toHaveLength(1);
  });
});

describe('the schema barrel', () => {
  it("lets db/schema.ts gather every module's and adapter's tables, and nothing else of theirs", async () => {
    const barrel = 'apps/api/src/db/schema.ts';
    expect(await crossings(barrel, "export * from '../modules/clusters/clusters.schema.js';")).toEqual([]);
    expect(await crossings(barrel, "export * from '../adapters/cloud/simulated/sim-cloud.schema.js';")).toEqual([]);
    expect(await crossings(barrel, "export * from '../modules/clusters/clusters.repository.js';")).toHaveLength(1);
    expect(await crossings(barrel, "export * from '../adapters/payments/sandbox/sandbox.repository.js';")).toHaveLength(1);
    expect(await crossings('apps/api/src/db/client.ts', "import { clusters } from '../modules/clusters/clusters.schema.js';")).toHaveLength(
      1,
    );
    expect(
      await crossings('apps/api/src/modules/billing/billing.repository.ts', "import { users } from '../auth/auth.schema.js';"),
    ).toHaveLength(1);
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

/**
 * Import circles: the rule follows the files on disk, so each case writes a small tree of API modules and console
 * features into a fresh folder and lints one file of it. The last case lints against the project's own tree.
 */
describe('import circles', () => {
  let folder: string;
  let cyclesOnly: (cwd: string) => ESLint;

  beforeAll(async () => {
    const config = (await new ESLint({ cwd: root }).calculateConfigForFile('apps/api/src/services.ts')) as Linter.Config;
    cyclesOnly = (cwd) =>
      new ESLint({
        cwd,
        overrideConfigFile: true,
        overrideConfig: [
          {
            files: ['**/*.ts', '**/*.tsx'],
            languageOptions: { parser: tseslint.parser, parserOptions: { ecmaFeatures: { jsx: true } } },
            plugins: config.plugins,
            rules: { [CYCLES]: 'error' },
          },
        ],
      });
  });
  afterAll(() => folder && rmSync(folder, { recursive: true, force: true }));

  /** Writes the files (path → source) into a fresh folder and returns the rule's messages for `lint`. */
  async function circles(files: Record<string, string>, lint: string): Promise<string[]> {
    if (folder) rmSync(folder, { recursive: true, force: true });
    folder = mkdtempSync(join(tmpdir(), 'kumo-cycles-'));
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      writeFileSync(join(folder, file), source);
    }
    const [result] = await cyclesOnly(folder).lintFiles([lint]);
    expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
    return result!.messages.filter((m) => m.ruleId === CYCLES).map((m) => m.message);
  }

  const lib = 'apps/api/src/lib';

  it('refuses a chain of runtime imports that leads back to the file, naming the chain', async () => {
    const files = {
      [`${lib}/a.ts`]: "import { b } from './b.js';\nexport const a = () => b;",
      [`${lib}/b.ts`]: "import { c } from './c.js';\nexport const b = () => c;",
      [`${lib}/c.ts`]: "import { a } from './a.js';\nexport const c = () => a;",
    };
    expect(await circles(files, `${lib}/a.ts`)).toEqual([
      'Import circle: lib/a.ts → lib/b.ts → lib/c.ts → lib/a.ts. Break it (a type-only import, or move the shared piece below both files).',
    ]);
    expect(await circles(files, `${lib}/c.ts`)).toHaveLength(1);
  });

  it('counts re-exports and dynamic imports, and finds files by their .js, folder or bare names', async () => {
    const reExport = {
      [`${lib}/a.ts`]: "export * from './parts';",
      [`${lib}/parts/index.ts`]: "export { b } from './b.js';",
      [`${lib}/parts/b.ts`]: "const load = () => import('../a');\nexport const b = load;",
    };
    expect(await circles(reExport, `${lib}/a.ts`)).toHaveLength(1);
    expect(await circles(reExport, `${lib}/parts/b.ts`)).toHaveLength(1);
  });

  it('lets type-only imports close a circle: the compiler erases them', async () => {
    const files = {
      [`${lib}/a.ts`]: "import { b } from './b.js';\nexport type A = { n: number };\nexport const a = b;",
      [`${lib}/b.ts`]: "import type { A } from './a.js';\nexport const b: A = { n: 1 };",
      [`${lib}/c.ts`]: "import { type A } from './a.js';\nexport type { A as C } from './a.js';\nexport const c: A = { n: 2 };",
    };
    expect(await circles(files, `${lib}/a.ts`)).toEqual([]);
    expect(await circles(files, `${lib}/b.ts`)).toEqual([]);
    expect(await circles(files, `${lib}/c.ts`)).toEqual([]);
    expect(
      await circles({ ...files, [`${lib}/b.ts`]: "import { type A, a } from './a.js';\nexport const b: A = a;" }, `${lib}/a.ts`),
    ).toHaveLength(1);
  });

  it('refuses a circle between API modules even when it passes through different files on each side', async () => {
    const modules = 'apps/api/src/modules';
    const files = {
      [`${modules}/clusters/index.ts`]: "export { deploy } from './deploy.js';",
      [`${modules}/clusters/deploy.ts`]: 'export const deploy = () => 1;',
      [`${modules}/clusters/usage.ts`]: "import { charge } from '../metering/index.js';\nexport const usage = charge;",
      [`${modules}/metering/index.ts`]: "export { charge } from './charge.js';",
      [`${modules}/metering/charge.ts`]: 'export const charge = () => 2;',
      [`${modules}/metering/guard.ts`]: "import { deploy } from '../clusters/index.js';\nexport const guard = deploy;",
    };
    expect(await circles(files, `${modules}/clusters/usage.ts`)).toEqual([
      'Import circle between modules/clusters, modules/metering: modules/clusters/usage.ts → modules/metering/index.ts → ' +
        'modules/metering/guard.ts → modules/clusters/index.ts. Modules, adapters and features depend one way only; ' +
        'pass what the other side needs in from the wiring, or move it below both.',
    ]);
    expect(await circles(files, `${modules}/metering/guard.ts`)).toHaveLength(1);
    // One way only is fine; so is the way back when it carries only types.
    const typesBack = {
      ...files,
      [`${modules}/metering/guard.ts`]: "import type { deploy } from '../clusters/index.js';\nexport type Guard = typeof deploy;",
    };
    expect(await circles(typesBack, `${modules}/clusters/usage.ts`)).toEqual([]);
  });

  it('refuses a circle between console features', async () => {
    const features = 'apps/console/src/features';
    const files = {
      [`${features}/home/home-page.tsx`]: "import { Bill } from '../billing/bill';\nexport const HomePage = () => <Bill />;",
      [`${features}/billing/bill.tsx`]: 'export const Bill = () => <p />;',
      [`${features}/billing/back-link.tsx`]: "import { HomePage } from '../home/home-page';\nexport const BackLink = () => <HomePage />;",
    };
    expect(await circles(files, `${features}/home/home-page.tsx`)).toHaveLength(1);
  });

  it("judges the file being linted against the project's own tree", async () => {
    // adapters/cloud/index.ts re-exports template/index.ts, which re-exports cidr.ts: cidr.ts may not import the index.
    const [result] = await cyclesOnly(root).lintText("import { createCloud } from '../index.js';\nexport const make = createCloud;", {
      filePath: `${root}apps/api/src/adapters/cloud/template/cidr.ts`,
    });
    expect(result!.messages.map((m) => m.message)).toEqual([
      expect.stringContaining(
        'Import circle: adapters/cloud/template/cidr.ts → adapters/cloud/index.ts → adapters/cloud/template/index.ts',
      ),
    ]);
  });
});
