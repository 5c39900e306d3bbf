/** AWS SDK mocks and recorded-shape answers for the AWS driver's tests: no network. */
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import {
  DescribeInstanceStatusCommand,
  DescribeInstancesCommand,
  EC2Client,
  type Instance,
  type InstanceStatus,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, vi } from 'vitest';
import { type CreateClusterInput } from '../../src/adapters/cloud/cloud-provisioner.js';
import { TAG_KEYS, TEMPLATE_PARAMETERS } from '../../src/adapters/cloud/template/cluster-template.js';
import { layoutNodes } from '../../src/adapters/cloud/template/node-layout.js';
import { createAwsProvisioner } from '../../src/adapters/cloud/aws/aws-provisioner.js';

export const cf = mockClient(CloudFormationClient);
export const ec2 = mockClient(EC2Client);

export const DEPLOYMENT_ID = '7d0c2f6e-1b7a-4b1e-9a55-0e3f4c2b9d10';
export const STACK_NAME = `kumo-${DEPLOYMENT_ID}`;
export const STACK_ID = `arn:aws:cloudformation:us-east-1:123456789012:stack/${STACK_NAME}/5b1d8a40-a9a5-11ef-9e2b-0affd1c3b2a1`;
export const PASSWORD = 'Sup3r-Secret-Pass!';
export const PORTAL_CREDENTIAL = 'pOrTaL-cReDeNtIaL-0123456789abcdef';

export const input = (over: Partial<CreateClusterInput['settings']> = {}): CreateClusterInput => ({
  deploymentId: DEPLOYMENT_ID,
  stackName: STACK_NAME,
  password: PASSWORD,
  portalSqlCredential: PORTAL_CREDENTIAL,
  settings: { clusterName: 'Sales', region: 'us-east-1', backupRegion: null, cidr: '10.12.0.0/16', kumoVersion: '1.4.0', ...over },
});

/** An AWS service error as the SDK raises it for an error code without its own class (CloudFormation's ValidationError, EC2's codes). */
export const awsError = (name: string, message: string, httpStatusCode = 400) =>
  Object.assign(new Error(message), { name, $fault: 'client', $metadata: { httpStatusCode, requestId: 'a1b2c3d4' } });

export const stack = (status: string, extra: Partial<Stack> = {}): Stack => ({
  StackId: STACK_ID,
  StackName: STACK_NAME,
  Description: 'Kumo Analytics Cloud cluster Sales',
  Parameters: [{ ParameterKey: TEMPLATE_PARAMETERS.password, ParameterValue: '****' }],
  CreationTime: new Date('2026-11-23T15:00:00.000Z'),
  StackStatus: status as Stack['StackStatus'],
  DisableRollback: false,
  NotificationARNs: [],
  Capabilities: ['CAPABILITY_IAM'],
  Tags: [{ Key: TAG_KEYS.deploymentId, Value: DEPLOYMENT_ID }],
  EnableTerminationProtection: false,
  DriftInformation: { StackDriftStatus: 'NOT_CHECKED' },
  ...extra,
});

export const OUTPUTS = [
  { OutputKey: 'KumoManagerUrl', OutputValue: 'https://54.210.10.20/manager/', Description: 'Kumo Manager (user kmuser)' },
  { OutputKey: 'KumoUrl', OutputValue: 'https://54.210.10.20/', Description: 'Web Portal (user Admin)' },
  { OutputKey: 'DeploymentId', OutputValue: DEPLOYMENT_ID },
];

const STATE_CODES: Record<string, number> = {
  pending: 0,
  running: 16,
  'shutting-down': 32,
  terminated: 48,
  stopping: 64,
  stopped: 80,
};

/** The eight instances of a cluster; `state` picks each node's state, `deploymentTag` the installer's tag. */
export function instances(state: (host: string, role: string) => string, deploymentTag?: string): Instance[] {
  return layoutNodes().map((node, k) => ({
    InstanceId: `i-0a1b2c3d4e5f6070${k}`,
    ImageId: 'ami-0fe1c2b3a4d5e6f70',
    InstanceType: node.instanceType as Instance['InstanceType'],
    LaunchTime: new Date('2026-11-23T15:04:00.000Z'),
    Placement: { AvailabilityZone: 'us-east-1a', Tenancy: 'default' },
    PrivateIpAddress: `10.12.${node.role === 'PERIPHERAL_SERVICES' || node.role === 'BI_SERVER' ? 0 : 64}.${10 + k}`,
    State: { Code: STATE_CODES[state(node.host, node.role)]!, Name: state(node.host, node.role) as 'running' },
    SubnetId: 'subnet-0123456789abcdef0',
    VpcId: 'vpc-0123456789abcdef0',
    Tags: [
      { Key: 'aws:cloudformation:stack-name', Value: STACK_NAME },
      { Key: 'aws:cloudformation:stack-id', Value: STACK_ID },
      { Key: 'aws:cloudformation:logical-id', Value: node.logicalId },
      { Key: TAG_KEYS.deploymentId, Value: DEPLOYMENT_ID },
      { Key: TAG_KEYS.role, Value: node.role },
      { Key: TAG_KEYS.node, Value: node.host },
      ...(deploymentTag && node.role === 'PERIPHERAL_SERVICES' ? [{ Key: TAG_KEYS.deploymentStatus, Value: deploymentTag }] : []),
    ],
  }));
}

/** DescribeInstances answers in reservations; CloudFormation launches each instance in its own. */
export const reservations = (list: Instance[]) => ({
  Reservations: list.map((instance, k) => ({ ReservationId: `r-0f1e2d3c4b5a6978${k}`, OwnerId: '123456789012', Instances: [instance] })),
});

export const statusChecks = (list: Instance[], status: 'ok' | 'initializing'): { InstanceStatuses: InstanceStatus[] } => ({
  InstanceStatuses: list
    .filter((i) => i.State?.Name === 'running')
    .map((i) => ({
      InstanceId: i.InstanceId,
      AvailabilityZone: 'us-east-1a',
      InstanceState: { Code: 16, Name: 'running' as const },
      InstanceStatus: {
        Status: status,
        Details: [{ Name: 'reachability' as const, Status: status === 'ok' ? ('passed' as const) : ('initializing' as const) }],
      },
      SystemStatus: {
        Status: status,
        Details: [{ Name: 'reachability' as const, Status: status === 'ok' ? ('passed' as const) : ('initializing' as const) }],
      },
    })),
});

export function givenCluster(stackStatus: string, list: Instance[], checks: 'ok' | 'initializing' = 'ok', extra: Partial<Stack> = {}) {
  cf.on(DescribeStacksCommand).resolves({ Stacks: [stack(stackStatus, extra)] });
  ec2.on(DescribeInstancesCommand).resolves(reservations(list));
  ec2.on(DescribeInstanceStatusCommand).resolves(statusChecks(list, checks));
}

export const all = (state: string) => () => state;
export const driver = () => createAwsProvisioner({ backupBucketArnPattern: 'arn:aws:s3:::acme-kumo-backup-{region}' });
/** Clears the mocks before each test and the environment after it. */
export function useAwsMocks() {
  beforeEach(() => {
    cf.reset();
    ec2.reset();
  });
  afterEach(() => vi.unstubAllEnvs());
}
