import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { PermissionState } from '@kumo/contract';
import { userDetail } from '../../../test/users';
import { saveTokens, saveUser } from '../../lib/session';
import { Permission, usePermission } from './permission';

function signInWith(permissions: Record<string, PermissionState> | undefined) {
  saveTokens('jwt', 'refresh');
  saveUser(userDetail({ role: 'SYSTEM_SUPPORT', accounts: [], ownerEmailId: null, permissions }));
}

function StateOf({ name }: { name: string }) {
  const access = usePermission(name);
  return <p>{`${name}: ${access.state} visible=${access.visible} disabled=${access.disabled}`}</p>;
}

const renderInMantine = (ui: ReactNode) => render(<MantineProvider env="test">{ui}</MantineProvider>);

afterEach(() => localStorage.clear());

describe('usePermission', () => {
  it("reads the staff member's state for a key, HIDDEN when the key is absent", () => {
    signInWith({ customer_change_rates: 'ENABLED', customer_change_overdue: 'DISABLED' });
    renderInMantine(
      <>
        <StateOf name="customer_change_rates" />
        <StateOf name="customer_change_overdue" />
        <StateOf name="customer_open_km" />
      </>,
    );
    expect(screen.getByText('customer_change_rates: ENABLED visible=true disabled=false')).toBeInTheDocument();
    expect(screen.getByText('customer_change_overdue: DISABLED visible=true disabled=true')).toBeInTheDocument();
    expect(screen.getByText('customer_open_km: HIDDEN visible=false disabled=false')).toBeInTheDocument();
  });

  it('hides everything when the user detail carries no permissions', () => {
    signInWith(undefined);
    renderInMantine(<StateOf name="customer_list" />);
    expect(screen.getByText('customer_list: HIDDEN visible=false disabled=false')).toBeInTheDocument();
  });
});

describe('<Permission>', () => {
  it('renders enabled content as it is', () => {
    signInWith({ customer_change_rates: 'ENABLED' });
    renderInMantine(
      <Permission name="customer_change_rates">
        <button type="button">Change Rates</button>
      </Permission>,
    );
    expect(screen.getByRole('button', { name: 'Change Rates' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Change Rates' }).closest('[inert]')).toBeNull();
  });

  it('keeps disabled content visible but inert', () => {
    signInWith({ customer_change_rates: 'DISABLED' });
    renderInMantine(
      <Permission name="customer_change_rates">
        <button type="button">Change Rates</button>
      </Permission>,
    );
    const wrapper = screen.getByRole('button', { name: 'Change Rates', hidden: true }).closest('[data-permission-disabled]');
    expect(wrapper).toHaveAttribute('inert');
    expect(wrapper).toHaveAttribute('aria-disabled', 'true');
  });

  it('passes the state to a render function, which disables its own controls', () => {
    signInWith({ customer_change_overdue: 'DISABLED' });
    renderInMantine(
      <Permission name="customer_change_overdue">
        {({ disabled }) => (
          <button type="button" disabled={disabled}>
            Change Limit
          </button>
        )}
      </Permission>,
    );
    expect(screen.getByRole('button', { name: 'Change Limit' })).toBeDisabled();
  });

  it('leaves hidden content out, showing the fallback if one is given', () => {
    signInWith({});
    renderInMantine(
      <Permission name="customer_delete_cluster" fallback={<p>Not available</p>}>
        <button type="button">Delete Cluster</button>
      </Permission>,
    );
    expect(screen.queryByRole('button', { name: 'Delete Cluster' })).not.toBeInTheDocument();
    expect(screen.getByText('Not available')).toBeInTheDocument();
  });
});
