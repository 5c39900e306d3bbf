// The first screen the build draws into a customer page's HTML (scripts/first-screens.mjs): the shell and the page's
// header, painted before any script has run. public/first-paint.js shows it only to a signed-in customer.
// React renders beside it, not over it: the drawn nodes stay on screen, untouched, until the first page (or an error
// in its place) commits, hidden in that same commit and removed in a task after it. Replaced by a copy on React's first commit instead,
// the page's largest text would be painted twice, and the browser would time the page's largest contentful paint
// from the copy: a frame after the first paint, once the page's code is already on its way.

let drawn: HTMLElement | null = null;

/**
 * The element React renders into: #root itself, or, when first-paint.js showed the drawn first screen, a wrapper
 * after it (laid out as if it were not there) that leaves the drawn nodes alone.
 */
export function keepFirstScreen(container: HTMLElement): HTMLElement {
  const first = container.firstElementChild;
  const shown = document.documentElement.hasAttribute('data-first-screen') && first?.id === 'first-screen';
  drawn = shown ? (first as HTMLElement) : null;
  if (!drawn) return container;
  const reactContainer = document.createElement('div');
  reactContainer.style.display = 'contents';
  container.append(reactContainer);
  return reactContainer;
}

/** Whether the drawn first screen is still on screen, waiting for the first page. */
export function firstScreenShown(): boolean {
  return drawn?.isConnected ?? false;
}

/**
 * Takes the drawn first screen away: the first page, or the error shown in its place, has just been committed. It is
 * hidden at once and removed from the document in a task of its own: removed in the commit, its nodes' removal made
 * that long task longer still on a phone.
 */
export function discardFirstScreen(): void {
  const element = drawn;
  drawn = null;
  if (!element) return;
  element.style.display = 'none';
  setTimeout(() => element.remove(), 0);
}
