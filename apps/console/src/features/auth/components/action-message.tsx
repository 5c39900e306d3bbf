import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Anchor } from '@mantine/core';

/** Words in an error text that name something the reader can do next, and where doing it happens. */
const ACTIONS: { words: string; to: (mode: 'customer' | 'admin') => string }[] = [
  { words: 'signing up', to: () => '/signup' },
  { words: 'log in', to: (mode) => (mode === 'admin' ? '/admin/login' : '/login') },
];

/**
 * An error text whose closing advice ("Please consider signing up.", "Please log in.") is a link to that action,
 * so the reader does not have to look for it. Texts that name no action come back unchanged.
 */
export function withActionLink(message: string, mode: 'customer' | 'admin' = 'customer'): ReactNode {
  const advice = message.lastIndexOf('Please ');
  if (advice < 0) return message;
  for (const action of ACTIONS) {
    const at = message.indexOf(action.words, advice);
    if (at < 0) continue;
    return (
      <>
        {message.slice(0, at)}
        <Anchor component={Link} to={action.to(mode)} inherit fw={600} c="inherit" td="underline">
          {action.words}
        </Anchor>
        {message.slice(at + action.words.length)}
      </>
    );
  }
  return message;
}
