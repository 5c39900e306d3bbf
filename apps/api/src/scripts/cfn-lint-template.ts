// Runs AWS's CloudFormation linter (resource schemas, attributes, informational checks included) on three generated
// cluster documents: `npm run cfn-lint` with cfn-lint on the PATH (`pip install cfn-lint`). cfn-lint is a Python tool,
// not a dependency of the project, so this is a separate check rather than part of the test run.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderClusterTemplate, type ClusterTemplateSettings } from '../adapters/cloud/template/cluster-template.js';

const base: ClusterTemplateSettings = {
  deploymentId: '3f1c1b2e-9a7d-4c1e-8f00-123456789abc',
  clusterName: 'Sales',
  region: 'us-east-1',
  backupRegion: null,
  cidr: '10.20.0.0/16',
  kumoVersion: '1.4.0',
  queryEngines: { instanceType: 'r6i.4xlarge', count: 5 },
};
const variants = [
  base,
  { ...base, backupRegion: 'us-west-2', queryEngines: { instanceType: 'r6i.2xlarge', count: 2 } },
  { ...base, cidr: '10.1.2.0/26', backupRegion: 'eu-west-1', queryEngines: { instanceType: 'r6i.16xlarge', count: 1 } },
];

const dir = mkdtempSync(join(tmpdir(), 'kumo-cfn-'));
try {
  const files = variants.map((settings, i) => {
    const file = join(dir, `cluster-${i}.json`);
    writeFileSync(file, renderClusterTemplate(settings));
    return file;
  });
  const lint = spawnSync('cfn-lint', ['--regions', 'us-east-1', '--include-checks', 'I', '--', ...files], { encoding: 'utf8' });
  if (lint.error) {
    console.error(`cfn-lint could not run (${lint.error.message}); install it with: pip install cfn-lint`);
    process.exitCode = 2;
  } else if (lint.status !== 0 || lint.stdout.trim() !== '') {
    console.error(lint.stdout || lint.stderr);
    process.exitCode = 1;
  } else {
    console.log(`cfn-lint: ${files.length} cluster documents pass every check`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
