// Every check the project has, in order; stops at the first failure and ends with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const results = 'test-results';
mkdirSync(results, { recursive: true });

function run(label, command, args) {
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`);
  const outcome = spawnSync(command, args, { stdio: 'inherit', env: process.env });
  if (outcome.status !== 0) {
    console.error(`\n✖ ${label} failed (exit ${outcome.status ?? outcome.signal})`);
    process.exit(outcome.status || 1);
  }
}

run('type-check', 'npm', ['run', 'typecheck']);
run('lint', 'npm', ['run', 'lint']);
run('OpenAPI document up to date', 'npm', ['run', 'openapi', '--', '--check']);
run('unit and API tests', 'npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile=${results}/vitest.json`]);
run('build', 'npm', ['run', 'build']);
run('browser tests', 'npx', ['playwright', 'test']);
// Reads the manifest of the console built above: the sign-in screen's first download within its budget.
// Last, so an over-budget build still reports the browser tests first.
run('first-download budget', 'npx', ['vitest', 'run', '--config', 'apps/console/vitest.budget.config.ts']);

const count = (file, read) => (existsSync(file) ? read(JSON.parse(readFileSync(file, 'utf8'))) : { passed: 0, failed: 0 });
const unit = count(`${results}/vitest.json`, (report) => ({ passed: report.numPassedTests, failed: report.numFailedTests }));
const browser = count(`${results}/e2e.json`, (report) => ({
  passed: report.stats.expected,
  failed: report.stats.unexpected + report.stats.flaky,
}));
console.log(`\nunit+api: ${unit.passed} passed, browser: ${browser.passed} passed`);
console.log(`${unit.passed + browser.passed} passed, ${unit.failed + browser.failed} failed`);
