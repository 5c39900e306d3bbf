import { Suspense, useState, type ReactNode } from 'react';

/**
 * A dialog whose code loads on demand (lazyChunk), rendered from the first time it is opened and kept after, so it
 * closes with its transition. Until then its forms, checks and schemas stay out of the page's first screen.
 */
export function LoadedWhenOpened({ opened, children }: { opened: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(opened);
  if (opened && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
