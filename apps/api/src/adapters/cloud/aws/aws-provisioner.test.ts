/**
 * The AWS driver against aws-sdk-client-mock: no network. Responses follow the shapes AWS returns
 * (as recorded from the CloudFormation and EC2 APIs), trimmed to the fields that matter.
 */
import {
  AlreadyExistsException,
  type CloudFormationClient,
  CreateStackCommand,
  DeleteStackCommand,
  DescribeStackResourcesCommand,
  DescribeStacksCommand,
  InsufficientCapabilitiesException,
  LimitExceededException,
} from '@aws-sdk/client-cloudformation';
import { describe, expect, it } from 'vitest';
import { CloudRequestError } from '../cloud-provisioner.js';
import { TAG_KEYS, TEMPLATE_PARAMETERS, generateClusterTemplate, type CloudFormationTemplate } from '../template/cluster-template.js';
import { danglingReferences } from '../template/template-references.js';
import { toCloudError } from './aws-errors.js';
import { createAwsProvisioner } from './aws-provisioner.js';
import { mapStackStatus } from './aws-status.js';
import {
  cf,
  DEPLOYMENT_ID,
  STACK_NAME,
  STACK_ID,
  PASSWORD,
  PORTAL_CREDENTIAL,
  input,
  awsError,
  stack,
  driver,
  useAwsMocks,
} from '../../../../test/support/aws-mocks.js';

useAwsMocks();

describe('createCluster', () => {
  it("creates the stack from the template with the password and the portal's SQL credential as parameters, in the cluster region", async () => {
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
    expect(sent.Parameters).toEqual([
      { ParameterKey: TEMPLATE_PARAMETERS.password, ParameterValue: PASSWORD },
      { ParameterKey: TEMPLATE_PARAMETERS.portalSqlCredential, ParameterValue: PORTAL_CREDENTIAL },
    ]);
    // The secrets travel as parameters only, never inside the document.
    expect(sent.TemplateBody).not.toContain(PASSWORD);
    expect(sent.TemplateBody).not.toContain(PORTAL_CREDENTIAL);
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
      { ParameterKey: TEMPLATE_PARAMETERS.portalSqlCredential, ParameterValue: PORTAL_CREDENTIAL },
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

  it("refuses unusable settings, an empty password and a missing portal's credential before calling AWS", async () => {
    await expect(driver().createCluster(input({ cidr: '10.12.0.0/27' }))).rejects.toThrow(CloudRequestError);
    await expect(driver().createCluster({ ...input(), password: '' })).rejects.toThrow(/must not be empty/);
    await expect(driver().createCluster({ ...input(), portalSqlCredential: undefined })).rejects.toThrow(
      `The ${TEMPLATE_PARAMETERS.portalSqlCredential} parameter must not be empty`,
    );
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
