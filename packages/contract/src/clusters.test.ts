import { describe, expect, it } from 'vitest';
import {
  CLUSTER_MESSAGES,
  CLUSTER_SIZE_MESSAGES,
  canClusterDo,
  capacityLabel,
  cidrsOverlap,
  createClusterFormSchema,
  createClusterRequestFromForm,
  deploymentSteps,
  normalizeCidrInput,
  normalizePasswordInput,
  parseCidr,
  passwordPasses,
} from './index.js';

describe('cluster rules shared by the console and the API', () => {
  it('reads CIDR blocks and tells when two overlap', () => {
    expect(parseCidr('10.1.0.0/16')).toEqual({ base: (10 << 24) + (1 << 16), prefix: 16 });
    expect(parseCidr('10.1.0.0/33')).toBeNull();
    expect(parseCidr('256.1.0.0/16')).toBeNull();
    expect(cidrsOverlap('10.0.0.0/16', '10.0.128.0/17')).toBe(true);
    expect(cidrsOverlap('10.0.0.0/16', '10.1.0.0/16')).toBe(false);
    expect(cidrsOverlap('0.0.0.0/0', '192.168.1.0/24')).toBe(true);
    expect(normalizeCidrInput('10.a0. 0.0/16x')).toBe('10.0.0.0/16');
  });

  it('checks the password live: length, uppercase, digit, special character, no spaces', () => {
    expect(passwordPasses('Sup3r#Secret-pw')).toBe(true);
    for (const weak of ['Sh0rt#', 'nouppercase#123', 'NoDigitsHere#!', 'NoSpecial12345', 'With Space#123']) {
      expect(passwordPasses(weak), weak).toBe(false);
    }
    expect(normalizePasswordInput('a b\tc')).toBe('abc');
  });

  it('validates the form: confirmation, backup region only with disaster recovery', () => {
    const form = {
      selectedSubscription: '6a1d3e2f-8b7c-4d5e-9f0a-1b2c3d4e5f60',
      cluster_name: 'Sales_1',
      description: '',
      cloud_provider: 'AWS' as const,
      enableDrFlag: false,
      cidr: '10.0.0.0/16',
      region: 'us-east-1',
      backupRegion: 'us-west-2',
      password: 'Sup3r#Secret-pw',
      confirm_password: 'Sup3r#Secret-pw',
      kumo_version: '2026.10.1',
      network_access: { allow_anywhere: true, allowed: [] },
      size: 'S' as const,
      query_engines: 2,
    };
    expect(createClusterFormSchema.safeParse(form).success).toBe(true);
    expect(createClusterRequestFromForm(form)).toMatchObject({ size: 'S', query_engines: 2 });
    const tooMany = createClusterFormSchema.safeParse({ ...form, query_engines: 6 });
    expect(tooMany.error?.issues[0]).toMatchObject({ path: ['query_engines'], message: CLUSTER_SIZE_MESSAGES.queryEnginesRange });
    const mismatch = createClusterFormSchema.safeParse({ ...form, confirm_password: 'other' });
    expect(mismatch.error?.issues[0]?.message).toBe(CLUSTER_MESSAGES.passwordMismatch);
    const noBackup = createClusterFormSchema.safeParse({ ...form, enableDrFlag: true, backupRegion: null });
    expect(noBackup.error?.issues[0]?.message).toBe(CLUSTER_MESSAGES.backupRegionRequired);
    // With disaster recovery off the request carries no backup region.
    expect(createClusterRequestFromForm(form).backup_region).toBeNull();
    expect(createClusterRequestFromForm({ ...form, enableDrFlag: true }).backup_region).toBe('us-west-2');
  });

  it('offers start only when offline, stop only when online, delete unless busy', () => {
    expect(canClusterDo('start', 'OFFLINE')).toBe(true);
    expect(canClusterDo('start', 'FAILED')).toBe(false);
    expect(canClusterDo('stop', 'ONLINE')).toBe(true);
    expect(canClusterDo('stop', 'STARTING')).toBe(false);
    expect(canClusterDo('delete', 'FAILED')).toBe(true);
    expect(canClusterDo('delete', 'DEPLOYING')).toBe(false);
  });

  it('derives the deployment steps and capacity names', () => {
    expect(deploymentSteps('CREATE_IN_PROGRESS', null)).toEqual(['success', 'progress', 'default']);
    expect(deploymentSteps('CREATE_COMPLETE', 'KUMO_CLUSTER_DEPLOYMENT_IN_PROGRESS')).toEqual(['success', 'success', 'progress']);
    expect(deploymentSteps('ROLLBACK_COMPLETE', null)).toEqual(['success', 'error', 'default']);
    expect(deploymentSteps('CREATE_COMPLETE', 'KUMO_CLUSTER_DEPLOYMENT_FAILED')).toEqual(['success', 'success', 'error']);
    expect(deploymentSteps('CREATE_COMPLETE', 'KUMO_CLUSTER_DEPLOYMENT_COMPLETE')).toEqual(['success', 'success', 'success']);
    expect([0, 1, 3, 4, 5].map(capacityLabel)).toEqual(['Zero', 'Low', 'Moderate', 'High', 'Full']);
  });
});
