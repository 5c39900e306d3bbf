/**
 * What customers can choose at deployment: the AWS regions Kumo runs in with the regions their backups
 * may be replicated to, and the Kumo versions (preview versions only for accounts with the preview release on).
 */
import type { KumoVersion } from '@kumo/contract';

export const AWS_REGION_MAPPING: readonly { region: string; backup_regions: string[] }[] = [
  { region: 'us-east-1', backup_regions: ['us-east-2', 'us-west-2'] },
  { region: 'us-east-2', backup_regions: ['us-east-1', 'us-west-2'] },
  { region: 'us-west-2', backup_regions: ['us-east-1', 'us-west-1'] },
  { region: 'us-west-1', backup_regions: ['us-west-2', 'us-east-1'] },
  { region: 'eu-west-1', backup_regions: ['eu-central-1', 'eu-west-2'] },
  { region: 'eu-west-2', backup_regions: ['eu-west-1', 'eu-central-1'] },
  { region: 'eu-central-1', backup_regions: ['eu-west-1', 'eu-west-2'] },
  { region: 'ap-south-1', backup_regions: ['ap-southeast-1'] },
  { region: 'ap-southeast-1', backup_regions: ['ap-southeast-2', 'ap-south-1'] },
  { region: 'ap-southeast-2', backup_regions: ['ap-southeast-1'] },
];

export const backupRegionsOf = (region: string) => AWS_REGION_MAPPING.find((entry) => entry.region === region)?.backup_regions;

/** Generally available versions, newest first; exactly one is the default. */
export const GA_VERSIONS: readonly KumoVersion[] = [
  { version: '2026.10.1', description: 'GA: current release', default: true },
  { version: '2026.07.3', description: 'GA: previous release', default: false },
];

/** Versions offered only with the preview release enabled. */
export const PREVIEW_VERSIONS: readonly KumoVersion[] = [
  { version: '2027.01.0-preview.2', description: 'Preview: experimental features', default: false },
];

export const versionsFor = (previewEnabled: boolean): KumoVersion[] => [...GA_VERSIONS, ...(previewEnabled ? PREVIEW_VERSIONS : [])];

/** The space suggested /16 blocks come from: 10.0.0.0/16 … 10.255.0.0/16. */
export function candidateCidrs(): string[] {
  return Array.from({ length: 256 }, (_, i) => `10.${i}.0.0/16`);
}
