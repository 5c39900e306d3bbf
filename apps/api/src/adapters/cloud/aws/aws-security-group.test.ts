/**
 * The cluster's security group follows its network access list, through EC2's ingress calls (aws-sdk-client-mock,
 * no network); and a stack is made with the list's first IPv4 range, never open to anywhere when the list is not.
 */
import { CreateStackCommand, DescribeStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import {
  AuthorizeSecurityGroupIngressCommand,
  DescribeSecurityGroupsCommand,
  RevokeSecurityGroupIngressCommand,
} from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { CloudRequestError } from '../cloud-provisioner.js';
import { TEMPLATE_PARAMETERS } from '../template/cluster-template.js';
import { createAwsProvisioner } from './aws-provisioner.js';
import { cf, ec2, STACK_ID, STACK_NAME, awsError, driver, input, useAwsMocks } from '../../../../test/support/aws-mocks.js';

useAwsMocks();

const GROUP_ID = 'sg-0a1b2c3d4e5f60718';

/** The stack's group with these HTTPS ranges, and the nodes' own rule beside them. */
function givenGroup(ipv4: string[], ipv6: string[] = []) {
  cf.on(DescribeStackResourcesCommand, { StackName: STACK_NAME, LogicalResourceId: 'ClusterSecurityGroup' }).resolves({
    StackResources: [
      {
        StackName: STACK_NAME,
        StackId: STACK_ID,
        LogicalResourceId: 'ClusterSecurityGroup',
        PhysicalResourceId: GROUP_ID,
        ResourceType: 'AWS::EC2::SecurityGroup',
        Timestamp: new Date('2026-11-23T15:02:00.000Z'),
        ResourceStatus: 'CREATE_COMPLETE',
      },
    ],
  });
  ec2.on(DescribeSecurityGroupsCommand, { GroupIds: [GROUP_ID] }).resolves({
    SecurityGroups: [
      {
        GroupId: GROUP_ID,
        GroupName: `${STACK_NAME}-ClusterSecurityGroup-1X2Y3Z`,
        VpcId: 'vpc-0123456789abcdef0',
        OwnerId: '123456789012',
        Description: 'Kumo cluster Sales',
        IpPermissions: [
          {
            IpProtocol: 'tcp',
            FromPort: 443,
            ToPort: 443,
            IpRanges: ipv4.map((CidrIp) => ({ CidrIp, Description: 'Web Portal and Kumo Manager' })),
            Ipv6Ranges: ipv6.map((CidrIpv6) => ({ CidrIpv6 })),
            PrefixListIds: [],
            UserIdGroupPairs: [],
          },
          {
            IpProtocol: '-1',
            IpRanges: [],
            Ipv6Ranges: [],
            PrefixListIds: [],
            UserIdGroupPairs: [{ GroupId: GROUP_ID, UserId: '123456789012' }],
          },
        ],
      },
    ],
  });
  ec2.on(AuthorizeSecurityGroupIngressCommand).resolves({ Return: true });
  ec2.on(RevokeSecurityGroupIngressCommand).resolves({ Return: true });
}

const authorized = () => ec2.commandCalls(AuthorizeSecurityGroupIngressCommand).map((call) => call.args[0].input);
const revoked = () => ec2.commandCalls(RevokeSecurityGroupIngressCommand).map((call) => call.args[0].input);
const https = (ipv4: string[], ipv6: string[] = []) => ({
  IpProtocol: 'tcp',
  FromPort: 443,
  ToPort: 443,
  IpRanges: ipv4.map((CidrIp) => ({ CidrIp, Description: 'Kumo network access' })),
  Ipv6Ranges: ipv6.map((CidrIpv6) => ({ CidrIpv6, Description: 'Kumo network access' })),
});

describe("the cluster's security group follows its network access list", () => {
  it('authorises the listed ranges and revokes anywhere when a cluster open to anywhere gets a list', async () => {
    givenGroup(['0.0.0.0/0']);
    await driver().applyNetworkAccess!(STACK_NAME, ['203.0.113.7/32', '2001:db8::/48'], 'us-east-1');
    expect(authorized()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['203.0.113.7/32'], ['2001:db8::/48'])] }]);
    expect(revoked()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['0.0.0.0/0'])] }]);
    // Authorised first: an address on both lists is never shut out on the way.
    const order = ec2.calls().map((call) => call.args[0].constructor.name);
    expect(order.indexOf('AuthorizeSecurityGroupIngressCommand')).toBeLessThan(order.indexOf('RevokeSecurityGroupIngressCommand'));
  });

  it('changes only the difference, and nothing when the group holds the list already', async () => {
    givenGroup(['203.0.113.7/32', '198.51.100.0/24']);
    await driver().applyNetworkAccess!(STACK_NAME, ['198.51.100.0/24', '192.0.2.0/24']);
    expect(authorized()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['192.0.2.0/24'])] }]);
    expect(revoked()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['203.0.113.7/32'])] }]);

    ec2.resetHistory();
    await driver().applyNetworkAccess!(STACK_NAME, ['198.51.100.0/24', '203.0.113.7/32']);
    expect(authorized()).toEqual([]);
    expect(revoked()).toEqual([]);
  });

  it("opens the group to anywhere again (or to the operator's range) when the list is dropped", async () => {
    givenGroup(['203.0.113.7/32'], ['2001:db8::/48']);
    await driver().applyNetworkAccess!(STACK_NAME, null);
    expect(authorized()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['0.0.0.0/0'])] }]);
    expect(revoked()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['203.0.113.7/32'], ['2001:db8::/48'])] }]);

    ec2.resetHistory();
    await createAwsProvisioner({ ingressCidr: '192.0.2.0/24' }).applyNetworkAccess!(STACK_NAME, null);
    expect(authorized()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['192.0.2.0/24'])] }]);
  });

  it("lets the portal's own addresses in beside a list, never in place of anywhere", async () => {
    givenGroup(['0.0.0.0/0']);
    const withPortal = createAwsProvisioner({ portalCidr: '198.51.100.10/32' });
    await withPortal.applyNetworkAccess!(STACK_NAME, ['203.0.113.7/32', '198.51.100.10/32']);
    expect(authorized()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['203.0.113.7/32', '198.51.100.10/32'])] }]);

    ec2.resetHistory();
    await withPortal.applyNetworkAccess!(STACK_NAME, ['203.0.113.7/32']);
    expect(authorized()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['203.0.113.7/32', '198.51.100.10/32'])] }]);
    expect(revoked()).toEqual([{ GroupId: GROUP_ID, IpPermissions: [https(['0.0.0.0/0'])] }]);

    ec2.resetHistory();
    await withPortal.applyNetworkAccess!(STACK_NAME, null);
    expect(authorized()).toEqual([]);
    expect(revoked()).toEqual([]);
  });

  it('takes a rule another attempt already added or removed as done, and reports other refusals as retryable or not', async () => {
    givenGroup(['0.0.0.0/0']);
    ec2.on(AuthorizeSecurityGroupIngressCommand).rejects(awsError('InvalidPermission.Duplicate', 'the specified rule already exists'));
    ec2.on(RevokeSecurityGroupIngressCommand).rejects(awsError('InvalidPermission.NotFound', 'The specified rule does not exist'));
    await expect(driver().applyNetworkAccess!(STACK_NAME, ['203.0.113.7/32'])).resolves.toBeUndefined();

    ec2
      .on(AuthorizeSecurityGroupIngressCommand)
      .rejects(awsError('RulesPerSecurityGroupLimitExceeded', 'The maximum number of rules per security group has been reached.'));
    const refused = await driver().applyNetworkAccess!(STACK_NAME, ['203.0.113.7/32']).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(CloudRequestError);
    expect((refused as CloudRequestError).retryable).toBe(false);

    ec2.on(AuthorizeSecurityGroupIngressCommand).rejects(awsError('RequestLimitExceeded', 'Request limit exceeded.', 503));
    expect(
      ((await driver().applyNetworkAccess!(STACK_NAME, ['203.0.113.7/32']).catch((e: unknown) => e)) as CloudRequestError).retryable,
    ).toBe(true);
  });

  it('waits, retryably, while the stack has no security group yet', async () => {
    cf.on(DescribeStackResourcesCommand).resolves({ StackResources: [] });
    const waiting = await driver().applyNetworkAccess!(STACK_NAME, ['203.0.113.7/32']).catch((error: unknown) => error);
    expect((waiting as CloudRequestError).retryable).toBe(true);
    expect(ec2.commandCalls(AuthorizeSecurityGroupIngressCommand)).toHaveLength(0);
  });
});

describe('the stack is made with the ingress of its list', () => {
  const ingressParameter = () =>
    cf.commandCalls(CreateStackCommand)[0]!.args[0].input.Parameters!.find((p) => p.ParameterKey === TEMPLATE_PARAMETERS.ingressCidr)
      ?.ParameterValue;

  it.each([
    ['open to anywhere: the template default', null, undefined],
    ['a list: its first IPv4 range', ['2001:db8::/48', '203.0.113.7/32'], '203.0.113.7/32'],
    ['a list of IPv6 ranges only: nobody until the list is applied', ['2001:db8::/48'], '0.0.0.0/32'],
  ])('%s', async (_name, ingress, expected) => {
    cf.on(CreateStackCommand).resolves({ StackId: STACK_ID });
    await driver().createCluster({ ...input(), ingress });
    expect(ingressParameter()).toBe(expected);
  });
});
