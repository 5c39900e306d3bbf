import { Center, Loader } from '@mantine/core';

/** What a whole page shows while the person or the page's code loads: the page's main content, for now. */
export function FullPageLoader() {
  return (
    <Center component="main" mih="100dvh">
      <Loader aria-label="Loading" />
    </Center>
  );
}
