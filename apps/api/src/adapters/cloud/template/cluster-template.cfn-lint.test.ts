/**
 * AWS's own linter on the generated documents (resource schemas, attributes, regions). cfn-lint is a
 * Python tool, not a dependency of the project, and takes half a minute to load: the check runs when
 * CFN_LINT=1 and cfn-lint is on the PATH (`pip install cfn-lint`), and is skipped otherwise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderClusterTemplate, type ClusterTemplateSettings } from './cluster-template.js';

const available = process.env.CFN_LINT === '1' && spawnSync('cfn-lint', ['--version']).status === 0;

describe.skipIf(!available)('cluster template under cfn-lint', () => {
  it('passes every check, informational ones included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kumo-cfn-'));
    try {
      const base: ClusterTemplateSettings = {
        deploymentId: '3f1c1b2e-9a7d-4c1e-8f00-123456789abc',
        clusterName: 'Sales',
        region: 'us-east-1',
        backupRegion: null,
        cidr: '10.20.0.0/16',
        kumoVersion: '1.4.0',
      };
      const files = [base, { ...base, backupRegion: 'us-west-2' }, { ...base, cidr: '10.1.2.0/26', backupRegion: 'eu-west-1' }].map(
        (settings, i) => {
          const file = join(dir, `cluster-${i}.json`);
          writeFileSync(file, renderClusterTemplate(settings));
          return file;
        },
      );
      let output = '';
      try {
        output = execFileSync('cfn-lint', ['--regions', 'us-east-1', '--include-checks', 'I', '--', ...files], { encoding: 'utf8' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output.trim()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
