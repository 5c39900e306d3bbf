import { icon } from './icon';

// The icons on the sign-in screens, apart from the others (icons.tsx) so /login's first download holds only these.
export const IconChart = /* @__PURE__ */ icon(
  <>
    <path d="M4 20h16" />
    <path d="M7 16v-5M12 16V7M17 16v-8" />
  </>,
);
export const IconServer = /* @__PURE__ */ icon(
  <>
    <rect x="4" y="4" width="16" height="7" rx="2" />
    <rect x="4" y="13" width="16" height="7" rx="2" />
    <path d="M8 7.5h.01M8 16.5h.01" />
  </>,
);
export const IconUsers = /* @__PURE__ */ icon(
  <>
    <circle cx="9" cy="8.5" r="3.2" />
    <path d="M3.5 19c.6-3 2.8-4.6 5.5-4.6s4.9 1.6 5.5 4.6" />
    <path d="M15.5 5.6a3.2 3.2 0 0 1 0 5.8M17.5 14.6c1.6.6 2.7 2 3 4.4" />
  </>,
);
export const IconKey = /* @__PURE__ */ icon(
  <>
    <circle cx="8" cy="15" r="3.5" />
    <path d="m10.5 12.5 8-8M16 7l2.5 2.5M14 9l2 2" />
  </>,
);
