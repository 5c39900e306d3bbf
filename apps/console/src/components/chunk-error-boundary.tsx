import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Alert, Button, Center, Stack } from '@mantine/core';
import { ChunkLoadError } from '../lib/load-chunk';

interface Props {
  /** The address shown: moving to another one tries again. */
  resetKey: string;
  children: ReactNode;
}

interface State {
  error: unknown;
}

/**
 * The route's error boundary: a page whose chunk failed or did not arrive in time (lib/load-chunk.ts), or that failed
 * to render, says so and offers a reload (a chunk that failed once is not fetched again until the page reloads).
 */
export class ChunkErrorBoundary extends Component<Props, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { error };
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error !== undefined && previous.resetKey !== this.props.resetKey) this.setState({ error: undefined });
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === undefined) return this.props.children;
    const text =
      error instanceof ChunkLoadError
        ? `${error.message} Check your connection and reload the page.`
        : 'Something went wrong while showing this page. Reload the page to try again.';
    return (
      <Center mih="100dvh" p="md">
        <Stack align="center" maw={480}>
          <Alert color="red" variant="light" role="alert" title="This page could not be loaded">
            {text}
          </Alert>
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
        </Stack>
      </Center>
    );
  }
}
