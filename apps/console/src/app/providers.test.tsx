import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notifySuccess } from '../components/notify';
import { Providers } from './providers';

describe('the toast host', () => {
  it('is not mounted with the first screen, and shows the first toast once asked for', async () => {
    render(
      <Providers>
        <p>Page</p>
      </Providers>,
    );
    expect(screen.getByText('Page')).toBeInTheDocument();
    expect(document.querySelector('.mantine-Notifications-root')).toBeNull();

    notifySuccess('Saved.');

    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(document.querySelector('.mantine-Notifications-root')).not.toBeNull();
  });
});
