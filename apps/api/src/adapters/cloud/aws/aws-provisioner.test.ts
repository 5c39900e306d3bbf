/**
 * The AWS driver against aws-sdk-client-mock: no network. Responses follow the shapes AWS returns
 * (as recorded from the CloudFormation and EC2 APIs), trimmed to the fields that matter.
 */
import {
  AlreadyExistsException,
  CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackEventsCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  InsufficientCapabilitiesException,
  LimitExceededException,
  type Stack,
  type StackEvent,
} from '@aws-sdk/client-cloudformation';
import {
  DescribeInstanceStatusCommand,
  DescribeInstancesCommand,
  EC2Client,
  StartInstancesCommand,
  StopInstancesCommand,
  type Instance,
  type InstanceStatus,
} from '@aws-sdk/client-ec2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CloudRequestError, type CreateClusterInput } from '../cloud-provisioner.js';
import { TAG_KEYS, TEMPLATE_PARAMETERS, generateClusterTemplate, type CloudFormationTemplate } from '../template/cluster-template.js';
import { layoutNodes } from '../template/node-layout.js';
import { danglingReferences } from '../template/template-references.js';
import { toCloudError } from './aws-errors.js';
import { createAwsProvisioner } from './aws-provisioner.js';
import { mapStackStatus } from './aws-status.js';

const cf = mockClient(CloudFormationClient);
const ec2 = mockClient(EC2Client);

const DEPLOYMENT_ID = '7d0c2f6e-1b7a-4b1e-9a55-0e3f4c2b9d10';
const STACK_NAME = `kumo-${DEPLOYMENT_ID}`;
const STACK_ID = `arn:aws:cloudformation:us-east-1:123456789012:stack/${STACK_NAME}/5b1d8a40-a9a5-11ef-9e2b-0affd1c3b2a1`;
const PASSWORD = 'Sup3r-Secret-Pass!';

const input = (over: Partial<CreateClusterInput['settings']> = {}): CreateClusterInput => ({
  deploymentId: DEPLOYMENT_ID,
  stackName: STACK_NAME,
  password: PASSWORD,
  settings: { clusterName: 'Sales', region: 'us-east-1', backupRegion: null, cidr: '10.12.0.0/16', kumoVersion: '1.4.0', ...over },
});

/** An AWS service error as the SDK raises it for an error code without its own class (CloudFormation's ValidationError, EC2's codes). */
const awsError = (name: string, message: string, httpStatusCode = 400) =>
  Object.assign(new Error(message), { name, $fault: 'client', $metadata: { httpStatusCode, requestId: 'a1b2c3d4' } });

const stack = (status: string, extra: Partial<Stack> = {}): Stack => ({
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

const OUTPUTS = [
  { OutputKey: 'KumoManagerUrl', OutputValue: 'https://54.210.10.20/manager/', Description: 'Kumo Manager (user kmuser)' },
  { OutputKey: 'KumoUrl', OutputValue: 'https://54.210.10.20/', Description: 'Web Portal (user Admin)' },
  { OutputKey: 'DeploymentId', OutputValue: DEPLOYMENT_ID },
];

const STATE_CODES: Record<string, number> = { pending: 0, running: 16, 'shutting-down': 32, terminated: 48, stopping: 64, stopped: 80 };

/** The eight instances of a cluster; `state` picks each node's state, `deploymentTag` the installer's tag. */
function instances(state: (host: string, role: string) => string, deploymentTag?: string): Instance[] {
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
const reservations = (list: Instance[]) => ({
  Reservations: list.map((instance, k) => ({ ReservationId: `r-0f1e2d3c4b5a6978${k}`, OwnerId: '123456789012', Instances: [instance] })),
});

const statusChecks = (list: Instance[], status: 'ok' | 'initializing'): { InstanceStatuses: InstanceStatus[] } => ({
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

function givenCluster(stackStatus: string, list: Instance[], checks: 'ok' | 'initializing' = 'ok', extra: Partial<Stack> = {}) {
  cf.on(DescribeStacksCommand).resolves({ Stacks: [stack(stackStatus, extra)] });
  ec2.on(DescribeInstancesCommand).resolves(reservations(list));
  ec2.on(DescribeInstanceStatusCommand).resolves(statusChecks(list, checks));
}

const all = (state: string) => () => state;
const driver = () => createAwsProvisioner({ backupBucketArnPattern: 'arn:aws:s3:::acme-kumo-backup-{region}' });

beforeEach(() => {
  cf.reset();
  ec2.reset();
});
afterEach(() => vi.unstubAllEnvs());

describe('createCluster', () => {
  it('creates the stack from the template with the password as a parameter, in the cluster region', async () => {
    cf.on(CreateStackCommand).resolves({ StackId: STACK_ID, $metadata: { httpStatusCode: 200 } });
    let region: string | undefined;
    cf.on(CreateStackCommand).callsFake(async (_input, getClient) => {
      region = await (getClient() as CloudFormationClient).config.region();
      return { StackId: STACK_ID };
    });

    await expect(driver().createCluster(input({ region: 'eu-west-1' }))).resolves.toEqual({ stackId: STACK_ID });
    expect(region).toBe('eu-west-1');
    const [call] = cf.commandCalls(CreateStackCommand);
    const sent = call!.args[0].input;
    expect(sent.StackName).toBe(STACK_NAME);
    expect(sent.Capabilities).toEqual(['CAPABILITY_IAM']);
    expect(sent.OnFailure).toBe('ROLLBACK');
    expect(sent.ClientRequestToken).toBe(`create-${STACK_NAME}`);
    expect(sent.Tags).toContainEqual({ Key: TAG_KEYS.deploymentId, Value: DEPLOYMENT_ID });
    expect(sent.Parameters).toEqual([{ ParameterKey: TEMPLATE_PARAMETERS.password, ParameterValue: PASSWORD }]);
    // The password travels as a parameter only, never inside the document.
    expect(sent.TemplateBody).not.toContain(PASSWORD);
    const template = JSON.parse(sent.TemplateBody!) as CloudFormationTemplate;
    expect(template).toEqual(generateClusterTemplate({ deploymentId: DEPLOYMENT_ID, ...input({ region: 'eu-west-1' }).settings }));
    expect(danglingReferences(template)).toEqual([]);
  });

  it('passes the backup bucket of the backup region when disaster recovery is on', async () => {
    cf.on(CreateStackCommand).resolves({ StackId: STACK_ID });
    await createAwsProvisioner({
      backupBucketArnPattern: 'arn:aws:s3:::acme-kumo-backup-{region}',
      keyName: 'ops',
      ingressCidr: '203.0.113.0/24',
    }).createCluster(input({ backupRegion: 'us-west-2' }));
    const sent = cf.commandCalls(CreateStackCommand)[0]!.args[0].input;
    expect(sent.Parameters).toEqual([
      { ParameterKey: TEMPLATE_PARAMETERS.password, ParameterValue: PASSWORD },
      { ParameterKey: TEMPLATE_PARAMETERS.backupDestinationBucketArn, ParameterValue: 'arn:aws:s3:::acme-kumo-backup-us-west-2' },
      { ParameterKey: TEMPLATE_PARAMETERS.keyName, ParameterValue: 'ops' },
      { ParameterKey: TEMPLATE_PARAMETERS.ingressCidr, ParameterValue: '203.0.113.0/24' },
    ]);
    expect(JSON.parse(sent.TemplateBody!).Resources.BackupReplicationRole).toBeDefined();
  });

  it('returns the existing stack when a retried request finds it created', async () => {
    cf.on(CreateStackCommand).rejects(new AlreadyExistsException({ message: `Stack [${STACK_NAME}] already exists`, $metadata: {} }));
    cf.on(DescribeStacksCommand).resolves({ Stacks: [stack('CREATE_IN_PROGRESS')] });
    await expect(driver().createCluster(input())).resolves.toEqual({ stackId: STACK_ID });
  });

  it("refuses to adopt another deployment's stack of the same name", async () => {
    cf.on(CreateStackCommand).rejects(new AlreadyExistsException({ message: `Stack [${STACK_NAME}] already exists`, $metadata: {} }));
    cf.on(DescribeStacksCommand).resolves({
      Stacks: [stack('CREATE_COMPLETE', { Tags: [{ Key: TAG_KEYS.deploymentId, Value: 'other' }] })],
    });
    await expect(driver().createCluster(input())).rejects.toThrow(/already exists/);
  });

  it('refuses unusable settings and an empty password before calling AWS', async () => {
    await expect(driver().createCluster(input({ cidr: '10.12.0.0/27' }))).rejects.toThrow(CloudRequestError);
    await expect(driver().createCluster({ ...input(), password: '' })).rejects.toThrow(/must not be empty/);
    expect(cf.commandCalls(CreateStackCommand)).toHaveLength(0);
  });

  it.each([
    [new LimitExceededException({ message: 'Limit for stacks reached', $metadata: {} }), /CloudFormation limit/, false],
    [
      new InsufficientCapabilitiesException({ message: 'Requires capabilities : [CAPABILITY_IAM]', $metadata: {} }),
      /IAM capabilities/,
      false,
    ],
    [
      awsError('AccessDenied', 'User: arn:aws:iam::123456789012:user/portal is not authorized to perform: cloudformation:CreateStack', 403),
      /IAM policy/,
      false,
    ],
    [awsError('ExpiredToken', 'The security token included in the request is expired', 403), /credentials/, false],
    [awsError('Throttling', 'Rate exceeded'), /throttling/, true],
    [awsError('InternalFailure', 'An internal error occurred', 500), /busy|failed to answer/, true],
    [awsError('ValidationError', 'Template format error: Unresolved resource dependencies [Nope]'), /refused the request/, false],
  ])('maps %s to a clear error', async (error, message, retryable) => {
    cf.on(CreateStackCommand).rejects(error);
    const failure = await driver()
      .createCluster(input())
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CloudRequestError);
    expect((failure as CloudRequestError).message).toMatch(message);
    expect((failure as CloudRequestError).message).toContain(`Could not create the stack ${STACK_NAME}`);
    expect((failure as CloudRequestError).retryable).toBe(retryable);
  });
});

describe('describe', () => {
  it('reports no stack when CloudFormation does not know it', async () => {
    cf.on(DescribeStacksCommand).rejects(awsError('ValidationError', `Stack with id ${STACK_NAME} does not exist`));
    await expect(driver().describe(STACK_NAME, 'us-east-1')).resolves.toEqual({
      stackStatus: null,
      deploymentStatus: null,
      powerState: 'STOPPED',
      nodes: [],
    });
    expect(ec2.commandCalls(DescribeInstancesCommand)).toHaveLength(0);
  });

  it('reports a stack in creation with its nodes coming up', async () => {
    const list = instances((_, role) => (role === 'QUERY_ENGINES' ? 'pending' : 'running')).slice(0, 6);
    givenCluster('CREATE_IN_PROGRESS', list, 'initializing');
    const d = await driver().describe(STACK_NAME, 'us-east-1');
    expect(d).toMatchObject({ stackStatus: 'CREATE_IN_PROGRESS', deploymentStatus: null, powerState: 'PENDING' });
    expect(d.nodes).toHaveLength(8);
    expect(d.nodes.map((n) => n.nodeStatus)).toEqual([
      'Running',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
      'Pending',
    ]);
    expect(d.managerUrl).toBeUndefined();
    // The instances are found by the tag CloudFormation puts on them, live ones only.
    const filters = ec2.commandCalls(DescribeInstancesCommand)[0]!.args[0].input.Filters!;
    expect(filters).toContainEqual({ Name: 'tag:aws:cloudformation:stack-name', Values: [STACK_NAME] });
    expect(filters.find((f) => f.Name === 'instance-state-name')!.Values).not.toContain('terminated');
  });

  it('follows the installer tag: stack complete, product deploying, then deployed and online', async () => {
    givenCluster('CREATE_COMPLETE', instances(all('running')), 'ok', { Outputs: OUTPUTS });
    const deploying = await driver().describe(STACK_NAME, 'us-east-1');
    expect(deploying).toMatchObject({
      stackStatus: 'CREATE_COMPLETE',
      deploymentStatus: 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS',
      powerState: 'PENDING',
    });
    expect(deploying.managerUrl).toBeUndefined();
    expect(new Set(deploying.nodes.map((n) => n.serviceStatus))).toEqual(new Set(['Starting']));

    givenCluster('CREATE_COMPLETE', instances(all('running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'), 'ok', { Outputs: OUTPUTS });
    const online = await driver().describe(STACK_NAME, 'us-east-1');
    expect(online).toMatchObject({
      stackStatus: 'CREATE_COMPLETE',
      deploymentStatus: 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE',
      powerState: 'RUNNING',
      managerUrl: 'https://54.210.10.20/manager/',
      portalUrl: 'https://54.210.10.20/',
    });
    expect(online.nodes.filter((n) => n.role === 'QUERY_ENGINES' && n.serviceStatus === 'Online')).toHaveLength(5);
    expect(online.nodes[1]).toEqual({
      host: 'kumo-qe-1',
      role: 'QUERY_ENGINES',
      instanceType: 'r6i.4xlarge',
      core: 16,
      nodeStatus: 'Running',
      serviceName: 'Query Engine',
      serviceStatus: 'Online',
    });
  });

  it('reports a failed product deployment and an unknown tag as an exception', async () => {
    givenCluster('CREATE_COMPLETE', instances(all('running'), 'KUMO_CLUSTER_DEPLOYMENT_FAILED'));
    expect((await driver().describe(STACK_NAME)).deploymentStatus).toBe('KUMO_CLUSTER_DEPLOYMENT_FAILED');
    givenCluster('CREATE_COMPLETE', instances(all('running'), 'garbled'));
    expect((await driver().describe(STACK_NAME)).deploymentStatus).toBe('KUMO_CLUSTER_DEPLOYMENT_EXCEPTION');
    // The stack is complete but its Peripheral node was terminated by hand.
    givenCluster(
      'CREATE_COMPLETE',
      instances(all('running')).filter((i) => i.Tags?.some((t) => t.Value === 'PERIPHERAL_SERVICES') !== true),
    );
    expect((await driver().describe(STACK_NAME)).deploymentStatus).toBe('KUMO_CLUSTER_DEPLOYMENT_EXCEPTION');
  });

  it.each(['CREATE_FAILED', 'ROLLBACK_IN_PROGRESS', 'ROLLBACK_COMPLETE'])(
    'explains a failed creation (%s) by its first failed resource',
    async (status) => {
      givenCluster(status, [], 'ok', {
        StackStatusReason: 'The following resource(s) failed to create: [QueryEngine3]. Rollback requested by user.',
      });
      const events: StackEvent[] = [
        // Newest first, as DescribeStackEvents returns them.
        {
          StackId: STACK_ID,
          EventId: 'e4',
          StackName: STACK_NAME,
          LogicalResourceId: STACK_NAME,
          ResourceType: 'AWS::CloudFormation::Stack',
          Timestamp: new Date('2026-11-23T15:09:00Z'),
          ResourceStatus: 'ROLLBACK_IN_PROGRESS',
          ResourceStatusReason: 'The following resource(s) failed to create: [QueryEngine3]. Rollback requested by user.',
        },
        {
          StackId: STACK_ID,
          EventId: 'e3b',
          StackName: STACK_NAME,
          LogicalResourceId: 'PortalAddressAssociation',
          ResourceType: 'AWS::EC2::EIPAssociation',
          Timestamp: new Date('2026-11-23T15:08:40Z'),
          ResourceStatus: 'CREATE_FAILED',
          ResourceStatusReason: 'Resource handler returned message: "Instance is not in a valid state"',
        },
        {
          StackId: STACK_ID,
          EventId: 'e3',
          StackName: STACK_NAME,
          LogicalResourceId: 'QueryEngine4',
          ResourceType: 'AWS::EC2::Instance',
          Timestamp: new Date('2026-11-23T15:08:30Z'),
          ResourceStatus: 'CREATE_FAILED',
          ResourceStatusReason: 'Resource creation cancelled',
        },
        {
          StackId: STACK_ID,
          EventId: 'e2',
          StackName: STACK_NAME,
          LogicalResourceId: 'QueryEngine3',
          ResourceType: 'AWS::EC2::Instance',
          Timestamp: new Date('2026-11-23T15:08:00Z'),
          ResourceStatus: 'CREATE_FAILED',
          ResourceStatusReason:
            'We currently do not have sufficient r6i.4xlarge capacity in the Availability Zone you requested (us-east-1a). (Service: Ec2, Status Code: 500)',
        },
        {
          StackId: STACK_ID,
          EventId: 'e1',
          StackName: STACK_NAME,
          LogicalResourceId: 'Vpc',
          ResourceType: 'AWS::EC2::VPC',
          Timestamp: new Date('2026-11-23T15:01:00Z'),
          ResourceStatus: 'CREATE_COMPLETE',
        },
      ];
      cf.on(DescribeStackEventsCommand).resolves({ StackEvents: events });
      const d = await driver().describe(STACK_NAME, 'us-east-1');
      expect(d).toMatchObject({ stackStatus: status, deploymentStatus: null, powerState: 'STOPPED', nodes: [] });
      expect(d.failureReason).toBe(`QueryEngine3 (AWS::EC2::Instance): ${events[3]!.ResourceStatusReason}`);
    },
  );

  it('falls back to the stack reason when the events cannot be read', async () => {
    givenCluster('ROLLBACK_COMPLETE', [], 'ok', { StackStatusReason: 'The following resource(s) failed to create: [Vpc].' });
    cf.on(DescribeStackEventsCommand).rejects(awsError('Throttling', 'Rate exceeded'));
    expect((await driver().describe(STACK_NAME)).failureReason).toBe('The following resource(s) failed to create: [Vpc].');
  });

  it('reports stopping, stopped, starting and a partial capacity', async () => {
    givenCluster(
      'CREATE_COMPLETE',
      instances((h) => (h === 'kumo-qe-2' ? 'stopping' : 'stopped'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'),
    );
    expect((await driver().describe(STACK_NAME)).powerState).toBe('STOPPING');

    givenCluster('CREATE_COMPLETE', instances(all('stopped'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'), 'ok', { Outputs: OUTPUTS });
    const stopped = await driver().describe(STACK_NAME);
    expect(stopped.powerState).toBe('STOPPED');
    expect(stopped.managerUrl).toBeUndefined();
    expect(new Set(stopped.nodes.map((n) => `${n.nodeStatus}/${n.serviceStatus}`))).toEqual(new Set(['Stopped/Offline']));

    givenCluster(
      'CREATE_COMPLETE',
      instances((h) => (h.startsWith('kumo-qe') ? 'pending' : 'running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'),
    );
    expect((await driver().describe(STACK_NAME)).powerState).toBe('STARTING');

    // Everything up but the status checks still initialising: not online yet.
    givenCluster('CREATE_COMPLETE', instances(all('running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'), 'initializing');
    expect((await driver().describe(STACK_NAME)).powerState).toBe('STARTING');

    // Two query engines stopped by hand: the cluster runs with capacity 3.
    givenCluster(
      'CREATE_COMPLETE',
      instances((h) => (h === 'kumo-qe-4' || h === 'kumo-qe-5' ? 'stopped' : 'running'), 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE'),
      'ok',
      { Outputs: OUTPUTS },
    );
    const partial = await driver().describe(STACK_NAME);
    expect(partial.powerState).toBe('RUNNING');
    expect(partial.nodes.filter((n) => n.role === 'QUERY_ENGINES' && n.serviceStatus === 'Online')).toHaveLength(3);
  });

  it('reports a deletion in progress, a failed one and a finished one', async () => {
    givenCluster('DELETE_IN_PROGRESS', instances(all('shutting-down')));
    expect(await driver().describe(STACK_NAME)).toMatchObject({
      stackStatus: 'DELETE_IN_PROGRESS',
      deploymentStatus: null,
      powerState: 'STOPPING',
    });

    givenCluster('DELETE_FAILED', [], 'ok', { StackStatusReason: 'The following resource(s) failed to delete: [BackupBucket].' });
    cf.on(DescribeStackEventsCommand).resolves({
      StackEvents: [
        {
          StackId: STACK_ID,
          EventId: 'd1',
          StackName: STACK_NAME,
          LogicalResourceId: 'BackupBucket',
          ResourceType: 'AWS::S3::Bucket',
          Timestamp: new Date(),
          ResourceStatus: 'DELETE_FAILED',
          ResourceStatusReason: 'The bucket you tried to delete is not empty',
        },
      ],
    });
    expect(await driver().describe(STACK_NAME)).toMatchObject({
      stackStatus: 'DELETE_FAILED',
      failureReason: 'BackupBucket (AWS::S3::Bucket): The bucket you tried to delete is not empty',
    });

    cf.on(DescribeStacksCommand).resolves({ Stacks: [stack('DELETE_COMPLETE')] });
    expect(await driver().describe(STACK_ID)).toEqual({
      stackStatus: 'DELETE_COMPLETE',
      deploymentStatus: null,
      powerState: 'STOPPED',
      nodes: [],
    });
  });

  it('uses AWS_REGION when the call names no region', async () => {
    vi.stubEnv('AWS_REGION', 'ap-southeast-2');
    let region: string | undefined;
    cf.on(DescribeStacksCommand).callsFake(async (_input, getClient) => {
      region = await (getClient() as CloudFormationClient).config.region();
      throw awsError('ValidationError', `Stack with id ${STACK_NAME} does not exist`);
    });
    await createAwsProvisioner().describe(STACK_NAME);
    expect(region).toBe('ap-southeast-2');
  });

  it('maps a failure to read the stack to a clear error', async () => {
    cf.on(DescribeStacksCommand).rejects(awsError('AccessDenied', 'not authorized to perform: cloudformation:DescribeStacks', 403));
    await expect(driver().describe(STACK_NAME)).rejects.toThrow(`Could not read the stack ${STACK_NAME}: the IAM policy`);
  });
});

describe('stop and start', () => {
  it('stops the running instances of the stack', async () => {
    const list = instances((h) => (h === 'kumo-qe-5' ? 'stopped' : 'running'));
    givenCluster('CREATE_COMPLETE', list);
    ec2.on(StopInstancesCommand).resolves({
      StoppingInstances: [
        { InstanceId: list[0]!.InstanceId, CurrentState: { Code: 64, Name: 'stopping' }, PreviousState: { Code: 16, Name: 'running' } },
      ],
    });
    await driver().stopCluster(STACK_NAME, 'us-east-1');
    const ids = ec2.commandCalls(StopInstancesCommand)[0]!.args[0].input.InstanceIds!;
    expect(ids).toHaveLength(7);
    expect(ids).not.toContain(list[5]!.InstanceId);
  });

  it('does nothing when every instance is stopped already', async () => {
    givenCluster('CREATE_COMPLETE', instances(all('stopped')));
    await driver().stopCluster(STACK_NAME);
    expect(ec2.commandCalls(StopInstancesCommand)).toHaveLength(0);
  });

  it('starts the stopped instances of the stack', async () => {
    const list = instances(all('stopped'));
    givenCluster('CREATE_COMPLETE', list);
    ec2.on(StartInstancesCommand).resolves({ StartingInstances: [] });
    await driver().startCluster(STACK_NAME, 'us-east-1');
    expect(ec2.commandCalls(StartInstancesCommand)[0]!.args[0].input.InstanceIds).toEqual(list.map((i) => i.InstanceId));
  });

  it('refuses to start or stop a stack that does not exist', async () => {
    cf.on(DescribeStacksCommand).rejects(awsError('ValidationError', `Stack with id ${STACK_NAME} does not exist`));
    await expect(driver().startCluster(STACK_NAME)).rejects.toThrow(`Stack ${STACK_NAME} does not exist`);
    await expect(driver().stopCluster(STACK_NAME)).rejects.toThrow(CloudRequestError);
    expect(ec2.commandCalls(DescribeInstancesCommand)).toHaveLength(0);
  });

  it.each([
    [
      'InsufficientInstanceCapacity',
      'We currently do not have sufficient r6i.4xlarge capacity in the Availability Zone you requested',
      /no capacity/,
      true,
    ],
    [
      'IncorrectInstanceState',
      "The instance 'i-0a1b2c3d4e5f60700' is not in a state from which it can be started.",
      /changing state/,
      true,
    ],
    ['UnauthorizedOperation', 'You are not authorized to perform this operation.', /IAM policy/, false],
  ])('maps the EC2 error %s', async (code, text, message, retryable) => {
    givenCluster('CREATE_COMPLETE', instances(all('stopped')));
    ec2.on(StartInstancesCommand).rejects(awsError(code, text));
    const failure = (await driver()
      .startCluster(STACK_NAME)
      .catch((e: unknown) => e)) as CloudRequestError;
    expect(failure).toBeInstanceOf(CloudRequestError);
    expect(failure.message).toMatch(message);
    expect(failure.message).toContain(`Could not start the instances of ${STACK_NAME}`);
    expect(failure.retryable).toBe(retryable);
  });
});

describe('deleteCluster', () => {
  it('deletes the stack', async () => {
    cf.on(DescribeStacksCommand).resolves({ Stacks: [stack('CREATE_COMPLETE')] });
    cf.on(DeleteStackCommand).resolves({});
    await driver().deleteCluster(STACK_NAME, 'us-east-1');
    expect(cf.commandCalls(DeleteStackCommand)[0]!.args[0].input).toEqual({ StackName: STACK_NAME });
  });

  it('is a no-op for a stack that is gone or already being deleted', async () => {
    cf.on(DescribeStacksCommand).rejects(awsError('ValidationError', `Stack with id ${STACK_NAME} does not exist`));
    await driver().deleteCluster(STACK_NAME);
    cf.on(DescribeStacksCommand).resolves({ Stacks: [stack('DELETE_IN_PROGRESS')] });
    await driver().deleteCluster(STACK_NAME);
    expect(cf.commandCalls(DeleteStackCommand)).toHaveLength(0);
  });

  it('retries a failed deletion keeping the resources that could not be deleted', async () => {
    cf.on(DescribeStacksCommand).resolves({ Stacks: [stack('DELETE_FAILED')] });
    cf.on(DescribeStackResourcesCommand).resolves({
      StackResources: [
        { LogicalResourceId: 'Vpc', ResourceType: 'AWS::EC2::VPC', ResourceStatus: 'DELETE_COMPLETE', Timestamp: new Date() },
        {
          LogicalResourceId: 'BackupBucket',
          PhysicalResourceId: 'kumo-7d0c2f6e-1b7a-4b1e-9a55-0e3f4c2b9d10-123456789012',
          ResourceType: 'AWS::S3::Bucket',
          ResourceStatus: 'DELETE_FAILED',
          ResourceStatusReason: 'The bucket you tried to delete is not empty',
          Timestamp: new Date(),
        },
      ],
    });
    cf.on(DeleteStackCommand).resolves({});
    await driver().deleteCluster(STACK_NAME);
    expect(cf.commandCalls(DeleteStackCommand)[0]!.args[0].input).toEqual({ StackName: STACK_NAME, RetainResources: ['BackupBucket'] });
  });

  it('maps a refused deletion to a clear error', async () => {
    cf.on(DescribeStacksCommand).resolves({ Stacks: [stack('CREATE_COMPLETE')] });
    cf.on(DeleteStackCommand).rejects(awsError('AccessDenied', 'not authorized to perform: cloudformation:DeleteStack', 403));
    await expect(driver().deleteCluster(STACK_NAME)).rejects.toThrow(`Could not delete the stack ${STACK_NAME}: the IAM policy`);
  });
});

describe('status and error mapping', () => {
  it('maps every CloudFormation stack status', () => {
    expect(mapStackStatus('UPDATE_COMPLETE')).toBe('CREATE_COMPLETE');
    expect(mapStackStatus('REVIEW_IN_PROGRESS')).toBe('CREATE_IN_PROGRESS');
    expect(mapStackStatus('UPDATE_ROLLBACK_FAILED')).toBe('EXCEPTION');
    expect(mapStackStatus(undefined)).toBe('EXCEPTION');
    for (const s of ['CREATE_FAILED', 'ROLLBACK_FAILED', 'ROLLBACK_COMPLETE', 'DELETE_FAILED'] as const) expect(mapStackStatus(s)).toBe(s);
  });

  it('treats network failures as retryable and unknown ones as not', () => {
    expect(toCloudError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4566'), { code: 'ECONNREFUSED' }), 'x').retryable).toBe(
      true,
    );
    expect(toCloudError(new Error('Region is missing'), 'x').message).toMatch(/AWS_REGION/);
    expect(toCloudError(awsError('SomethingNew', 'odd'), 'do it')).toMatchObject({
      retryable: false,
      message: 'Could not do it: AWS refused the request (SomethingNew: odd)',
    });
  });
});
