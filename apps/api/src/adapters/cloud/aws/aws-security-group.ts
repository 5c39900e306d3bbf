/**
 * The cluster's security group follows its network access list: the HTTPS rule (the SQL endpoint, Kumo Manager and
 * the Web Portal) lets in exactly the listed ranges. The group is the stack's `ClusterSecurityGroup`; its other rules
 * (the nodes talking to each other) are left alone. Missing ranges are authorised before extra ones are revoked, so a
 * change never shuts out an address both lists hold.
 */
import type * as CloudFormationSdk from '@aws-sdk/client-cloudformation';
import type { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import type * as Ec2Sdk from '@aws-sdk/client-ec2';
import type { EC2Client, IpPermission } from '@aws-sdk/client-ec2';
import { CloudRequestError } from '../cloud-provisioner.js';
import { errorName, toCloudError } from './aws-errors.js';

export const SECURITY_GROUP_LOGICAL_ID = 'ClusterSecurityGroup';
const HTTPS = { IpProtocol: 'tcp', FromPort: 443, ToPort: 443 } as const;
/** Shown beside each rule in the AWS console; user descriptions may hold characters security groups refuse. */
const RULE_DESCRIPTION = 'Kumo network access';

interface Clients {
  sdk: { cf: typeof CloudFormationSdk; ec2: typeof Ec2Sdk };
  cloudFormation: CloudFormationClient;
  ec2: EC2Client;
}

const isIpv6 = (cidr: string) => cidr.includes(':');

function permission(cidrs: readonly string[]): IpPermission {
  return {
    ...HTTPS,
    IpRanges: cidrs.filter((cidr) => !isIpv6(cidr)).map((CidrIp) => ({ CidrIp, Description: RULE_DESCRIPTION })),
    Ipv6Ranges: cidrs.filter(isIpv6).map((CidrIpv6) => ({ CidrIpv6, Description: RULE_DESCRIPTION })),
  };
}

async function securityGroupOf({ sdk, cloudFormation }: Clients, stackName: string): Promise<string> {
  try {
    const answer = await cloudFormation.send(
      new sdk.cf.DescribeStackResourcesCommand({ StackName: stackName, LogicalResourceId: SECURITY_GROUP_LOGICAL_ID }),
    );
    const groupId = answer.StackResources?.[0]?.PhysicalResourceId;
    if (groupId) return groupId;
  } catch (error) {
    throw toCloudError(error, `find the security group of ${stackName}`);
  }
  throw new CloudRequestError(`The stack ${stackName} has no security group yet`, true);
}

/** Brings the HTTPS ingress of the stack's security group to exactly `wanted` (canonical CIDR ranges). */
export async function applySecurityGroupIngress(clients: Clients, stackName: string, wanted: readonly string[]): Promise<void> {
  const { sdk, ec2 } = clients;
  const groupId = await securityGroupOf(clients, stackName);
  let rules: IpPermission[];
  try {
    const answer = await ec2.send(new sdk.ec2.DescribeSecurityGroupsCommand({ GroupIds: [groupId] }));
    rules = answer.SecurityGroups?.[0]?.IpPermissions ?? [];
  } catch (error) {
    throw toCloudError(error, `read the security group ${groupId}`);
  }
  const https = rules.filter((rule) => rule.IpProtocol === 'tcp' && rule.FromPort === 443 && rule.ToPort === 443);
  const held = new Set(
    https.flatMap((rule) => [
      ...(rule.IpRanges ?? []).map((range) => range.CidrIp),
      ...(rule.Ipv6Ranges ?? []).map((range) => range.CidrIpv6),
    ]),
  );
  const missing = wanted.filter((cidr) => !held.has(cidr));
  const extra = [...held].filter((cidr): cidr is string => !!cidr && !wanted.includes(cidr));

  if (missing.length > 0) {
    try {
      await ec2.send(new sdk.ec2.AuthorizeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: [permission(missing)] }));
    } catch (error) {
      // Another attempt of this same change got there first.
      if (errorName(error) !== 'InvalidPermission.Duplicate') throw toCloudError(error, `open ${groupId} to the listed addresses`);
    }
  }
  if (extra.length > 0) {
    try {
      await ec2.send(new sdk.ec2.RevokeSecurityGroupIngressCommand({ GroupId: groupId, IpPermissions: [permission(extra)] }));
    } catch (error) {
      if (errorName(error) !== 'InvalidPermission.NotFound')
        throw toCloudError(error, `close ${groupId} to the addresses no longer listed`);
    }
  }
}
