/**
 * Keeps the IAM policy documented for operators (docs/operations.md, "Running clusters on AWS") in step
 * with the driver: every AWS call the driver makes must be allowed by it, and so must what the template
 * needs at stack creation (passing its roles, reading the AMI parameter).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const read = (relative: string) => readFileSync(fileURLToPath(new URL(relative, import.meta.url)), 'utf8');

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: string | string[];
}

function documentedPolicy(): { Statement: Statement[] } {
  const doc = read('../../../../../../docs/operations.md');
  const section = doc.slice(doc.indexOf('## Running clusters on AWS'));
  const match = /```json\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('No policy JSON in the "Running clusters on AWS" section');
  return JSON.parse(match[1]!) as { Statement: Statement[] };
}

const wildcard = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');

function allows(policy: { Statement: Statement[] }, action: string) {
  return policy.Statement.some((s) => s.Effect === 'Allow' && [s.Action].flat().some((a) => wildcard(a).test(action)));
}

/** The SDK commands the driver sends (`new sdk.cf.XCommand`, `new sdk.ec2.XCommand`), as IAM actions. */
function driverActions(): string[] {
  const source = read('./aws-provisioner.ts') + read('./aws-security-group.ts');
  const services = { cf: 'cloudformation', ec2: 'ec2' } as const;
  const actions = [...source.matchAll(/new sdk\.(cf|ec2)\.(\w+)Command\(/g)].map(
    ([, client, name]) => `${services[client as keyof typeof services]}:${name}`,
  );
  return [...new Set(actions)].sort();
}

describe('documented IAM policy', () => {
  it('allows every call of the driver', () => {
    const policy = documentedPolicy();
    const actions = driverActions();
    expect(actions).toEqual([
      'cloudformation:CreateStack',
      'cloudformation:DeleteStack',
      'cloudformation:DescribeStackEvents',
      'cloudformation:DescribeStackResources',
      'cloudformation:DescribeStacks',
      'ec2:AuthorizeSecurityGroupIngress',
      'ec2:DescribeInstanceStatus',
      'ec2:DescribeInstances',
      'ec2:DescribeSecurityGroups',
      'ec2:RevokeSecurityGroupIngress',
      'ec2:StartInstances',
      'ec2:StopInstances',
    ]);
    expect(actions.filter((a) => !allows(policy, a))).toEqual([]);
  });

  it('allows what stack creation needs and no object access to backups', () => {
    const policy = documentedPolicy();
    for (const action of [
      'iam:PassRole',
      'ssm:GetParameters',
      'ec2:RunInstances',
      's3:PutReplicationConfiguration',
      'secretsmanager:CreateSecret',
    ]) {
      expect(allows(policy, action), action).toBe(true);
    }
    for (const action of ['s3:GetObject', 's3:PutObject', 'iam:CreateUser', 'ec2:ModifyInstanceAttribute']) {
      expect(allows(policy, action), action).toBe(false);
    }
    expect(policy.Statement.some((s) => [s.Action].flat().includes('*'))).toBe(false);
  });
});
