// Every check the project has; stops at the first failed step and ends with one summary line.
// The static checks are single-threaded, so they run side by side (each one's output printed whole when it ends).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const results = 'test-results';
mkdirSync(results, { recursive: true });
const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

function fail(label, status) {
  console.error(`\n✖ ${label} failed (exit ${status}) after ${elapsed()}`);
  process.exit(typeof status === 'number' && status !== 0 ? status : 1);
}

function run(label, command, args) {
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`);
  const outcome = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (outcome.status !== 0) fail(label, outcome.status ?? outcome.signal);
  console.log(`✔ ${label} (${elapsed()})`);
}

/** Runs steps (each a list of commands, one after another) side by side, with each step's output kept together. */
async function runSideBySide(steps) {
  const outcomes = await Promise.all(
    steps.map(async ({ label, commands }) => {
      let output = '';
      for (const [command, args] of commands) {
        output += `$ ${command} ${args.join(' ')}\n`;
        const status = await new Promise((resolve) => {
          const child = spawn(command, args, { env: { ...process.env, FORCE_COLOR: '1' } });
          child.stdout.on('data', (chunk) => (output += chunk));
          child.stderr.on('data', (chunk) => (output += chunk));
          child.on('close', (code, signal) => resolve(code ?? signal));
        });
        if (status !== 0) return { label, output, status };
      }
      return { label, output, status: 0 };
    }),
  );
  for (const { label, output, status } of outcomes) {
    console.log(`\n▶ ${label}\n${output.trimEnd()}`);
    console.log(status === 0 ? `✔ ${label}` : `✖ ${label}`);
  }
  const failed = outcomes.find((outcome) => outcome.status !== 0);
  if (failed) fail(failed.label, failed.status);
  console.log(`(static checks and build done after ${elapsed()})`);
}

// The contract's declarations and the command line's API types first: the type-aware lint and the OpenAPI check read them.
run('contract', 'npm', ['run', 'build', '-w', '@kumo/contract']);
run('CLI API types from docs/openapi.json', 'npm', ['run', 'generate', '-w', '@kumo/cli']);
await runSideBySide([
  {
    label: 'type-check, then build',
    commands: [
      ['npm', ['run', 'typecheck']],
      ['npm', ['run', 'build']],
    ],
  },
  { label: 'lint', commands: [['npm', ['run', 'lint']]] },
  {
    label: 'OpenAPI document up to date, and lint-free',
    commands: [
      ['npm', ['run', 'openapi', '--', '--check']],
      ['npm', ['run', 'openapi:lint']],
    ],
  },
]);
run('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${results}/vitest.json`]);
run('portal process tests', 'npx', [
  'vitest',
  'run',
  '--config',
  'apps/api/vitest.processes.config.ts',
  '--reporter=default',
  '--reporter=json',
  // That config's root is apps/api: an absolute path keeps its report beside the others.
  `--outputFile=${process.cwd()}/${results}/vitest-processes.json`,
]);
run('command line process tests', 'npx', [
  'vitest',
  'run',
  '--config',
  'packages/cli/vitest.processes.config.ts',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${process.cwd()}/${results}/vitest-cli-processes.json`,
]);
run('browser tests', 'npx', ['playwright', 'test']);
// Reads the manifest of the console built above: the sign-in screen's first download within its budget.
// Last, so an over-budget build still reports the browser tests first.
run('first-download budget', 'npx', ['vitest', 'run', '--config', 'apps/console/vitest.budget.config.ts']);

const count = (file, read) => (existsSync(file) ? read(JSON.parse(readFileSync(file, 'utf8'))) : { passed: 0, failed: 0 });
const vitestCount = (report) => ({ passed: report.numPassedTests, failed: report.numFailedTests });
const unitOnly = count(`${results}/vitest.json`, vitestCount);
const processes = count(`${results}/vitest-processes.json`, vitestCount);
const cliProcesses = count(`${results}/vitest-cli-processes.json`, vitestCount);
const unit = {
  passed: unitOnly.passed + processes.passed + cliProcesses.passed,
  failed: unitOnly.failed + processes.failed + cliProcesses.failed,
};
const browser = count(`${results}/e2e.json`, (report) => ({
  passed: report.stats.expected,
  failed: report.stats.unexpected + report.stats.flaky,
}));
console.log(`\nunit+api: ${unit.passed} passed, browser: ${browser.passed} passed (${elapsed()})`);
console.log(`${unit.passed + browser.passed} passed, ${unit.failed + browser.failed} failed`);
