import { formatCidr, subnetOf, type Ipv4Block } from './cidr.js';
import { TEMPLATE_PARAMETERS, getAtt, ref, safeTagValue, sub, type Resources, type TemplateContext } from './template-names.js';

/**
 * The cluster's network: its VPC with a public and a private subnet in one zone, the internet and NAT gateways and
 * their routes, the S3 endpoint, and the nodes' security group (HTTPS from the allowed addresses, anything between nodes).
 */
export function networkResources({ settings, named }: TemplateContext, vpc: Ipv4Block): Resources {
  // Quarters of the VPC: public, private; the second half is left free for later growth.
  const publicSubnet = formatCidr(subnetOf(vpc, vpc.prefix + 2, 0));
  const privateSubnet = formatCidr(subnetOf(vpc, vpc.prefix + 2, 1));

  return {
    Vpc: {
      Type: 'AWS::EC2::VPC',
      Properties: { CidrBlock: formatCidr(vpc), EnableDnsSupport: true, EnableDnsHostnames: true, Tags: named('vpc') },
    },
    InternetGateway: { Type: 'AWS::EC2::InternetGateway', Properties: { Tags: named('igw') } },
    InternetGatewayAttachment: {
      Type: 'AWS::EC2::VPCGatewayAttachment',
      Properties: { VpcId: ref('Vpc'), InternetGatewayId: ref('InternetGateway') },
    },
    PublicSubnet: {
      Type: 'AWS::EC2::Subnet',
      Properties: {
        VpcId: ref('Vpc'),
        CidrBlock: publicSubnet,
        AvailabilityZone: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] },
        MapPublicIpOnLaunch: false,
        Tags: named('public'),
      },
    },
    PrivateSubnet: {
      Type: 'AWS::EC2::Subnet',
      Properties: {
        VpcId: ref('Vpc'),
        CidrBlock: privateSubnet,
        // Same zone as the public subnet: cluster traffic stays inside one zone.
        AvailabilityZone: { 'Fn::Select': [0, { 'Fn::GetAZs': '' }] },
        Tags: named('private'),
      },
    },
    PublicRouteTable: { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref('Vpc'), Tags: named('public') } },
    PublicDefaultRoute: {
      Type: 'AWS::EC2::Route',
      DependsOn: 'InternetGatewayAttachment',
      Properties: { RouteTableId: ref('PublicRouteTable'), DestinationCidrBlock: '0.0.0.0/0', GatewayId: ref('InternetGateway') },
    },
    PublicSubnetRouteTableAssociation: {
      Type: 'AWS::EC2::SubnetRouteTableAssociation',
      Properties: { SubnetId: ref('PublicSubnet'), RouteTableId: ref('PublicRouteTable') },
    },
    NatAddress: { Type: 'AWS::EC2::EIP', DependsOn: 'InternetGatewayAttachment', Properties: { Domain: 'vpc', Tags: named('nat') } },
    NatGateway: {
      Type: 'AWS::EC2::NatGateway',
      Properties: { AllocationId: getAtt('NatAddress', 'AllocationId'), SubnetId: ref('PublicSubnet'), Tags: named('nat') },
    },
    PrivateRouteTable: { Type: 'AWS::EC2::RouteTable', Properties: { VpcId: ref('Vpc'), Tags: named('private') } },
    PrivateDefaultRoute: {
      Type: 'AWS::EC2::Route',
      Properties: { RouteTableId: ref('PrivateRouteTable'), DestinationCidrBlock: '0.0.0.0/0', NatGatewayId: ref('NatGateway') },
    },
    PrivateSubnetRouteTableAssociation: {
      Type: 'AWS::EC2::SubnetRouteTableAssociation',
      Properties: { SubnetId: ref('PrivateSubnet'), RouteTableId: ref('PrivateRouteTable') },
    },
    // Backup and data traffic to S3 bypasses the NAT gateway (cheaper, stays on the AWS network).
    S3Endpoint: {
      Type: 'AWS::EC2::VPCEndpoint',
      Properties: {
        VpcId: ref('Vpc'),
        ServiceName: sub('com.amazonaws.${AWS::Region}.s3'),
        VpcEndpointType: 'Gateway',
        RouteTableIds: [ref('PublicRouteTable'), ref('PrivateRouteTable')],
      },
    },
    ClusterSecurityGroup: {
      Type: 'AWS::EC2::SecurityGroup',
      Properties: {
        GroupDescription: `Kumo cluster ${safeTagValue(settings.clusterName)}`,
        VpcId: ref('Vpc'),
        SecurityGroupIngress: [
          {
            IpProtocol: 'tcp',
            FromPort: 443,
            ToPort: 443,
            CidrIp: ref(TEMPLATE_PARAMETERS.ingressCidr),
            Description: 'Web Portal and Kumo Manager',
          },
        ],
        Tags: named('nodes'),
      },
    },
    // Nodes talk to each other on any port; a separate rule because a group cannot name itself inline.
    ClusterSecurityGroupSelfIngress: {
      Type: 'AWS::EC2::SecurityGroupIngress',
      Properties: {
        GroupId: ref('ClusterSecurityGroup'),
        IpProtocol: '-1',
        SourceSecurityGroupId: ref('ClusterSecurityGroup'),
        Description: 'Traffic between the nodes of the cluster',
      },
    },
  };
}
