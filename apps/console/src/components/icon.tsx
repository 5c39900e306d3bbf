import type { ReactNode, SVGProps } from 'react';

// Inline outline icons: the Content-Security-Policy allows no icon fonts or CDNs.
export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** Makes an icon component. Each call is marked pure, so a bundle keeps only the icons its pages use. */
export function icon(paths: ReactNode) {
  return function Icon({ size = 18, ...props }: IconProps) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.8}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
        {...props}
      >
        {paths}
      </svg>
    );
  };
}
