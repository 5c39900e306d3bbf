import { icon } from './icon';

export { IconChart, IconKey, IconServer, IconUsers } from './sign-in-icons';

export const IconHome = /* @__PURE__ */ icon(
  <>
    <path d="M4 11.5 12 5l8 6.5" />
    <path d="M6 10v9h4.5v-5h3v5H18v-9" />
  </>,
);
export const IconWallet = /* @__PURE__ */ icon(
  <>
    <rect x="3.5" y="6" width="17" height="13" rx="2.5" />
    <path d="M16 12.5h4.5M6.5 6l9-2.5V6" />
  </>,
);
export const IconBuilding = /* @__PURE__ */ icon(
  <>
    <path d="M5 20V5.5A1.5 1.5 0 0 1 6.5 4h7A1.5 1.5 0 0 1 15 5.5V20" />
    <path d="M15 9.5h3.5A1.5 1.5 0 0 1 20 11v9M3.5 20h17M8.5 8h3M8.5 12h3M8.5 16h3" />
  </>,
);
export const IconHelp = /* @__PURE__ */ icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M9.7 9.5a2.4 2.4 0 0 1 4.6.9c0 1.6-2.3 2-2.3 3.4M12 16.8h.01" />
  </>,
);
export const IconLogout = /* @__PURE__ */ icon(
  <>
    <path d="M14 4.5H7A1.5 1.5 0 0 0 5.5 6v12A1.5 1.5 0 0 0 7 19.5h7" />
    <path d="M11 12h9M17 8.5 20.5 12 17 15.5" />
  </>,
);
export const IconSearch = /* @__PURE__ */ icon(
  <>
    <circle cx="11" cy="11" r="6.5" />
    <path d="m16 16 4 4" />
  </>,
);
export const IconCheck = /* @__PURE__ */ icon(<path d="m5 12.5 4.5 4.5L19 7.5" />);
export const IconPlus = /* @__PURE__ */ icon(<path d="M12 5v14M5 12h14" />);
export const IconExternal = /* @__PURE__ */ icon(
  <>
    <path d="M14 5h5v5M19 5l-8 8" />
    <path d="M17 14v4a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 5 18V8.5A1.5 1.5 0 0 1 6.5 7H10" />
  </>,
);
export const IconArrowRight = /* @__PURE__ */ icon(<path d="M5 12h14M13.5 6.5 19 12l-5.5 5.5" />);
export const IconArrowLeft = /* @__PURE__ */ icon(<path d="M19 12H5M10.5 6.5 5 12l5.5 5.5" />);
export const IconGift = /* @__PURE__ */ icon(
  <>
    <rect x="4" y="9" width="16" height="11" rx="1.5" />
    <path d="M3.5 9h17M12 9v11M12 9s-1.5-4.5-4-4.5a2 2 0 0 0 0 4.5M12 9s1.5-4.5 4-4.5a2 2 0 0 1 0 4.5" />
  </>,
);
export const IconLock = /* @__PURE__ */ icon(
  <>
    <rect x="5" y="10.5" width="14" height="9.5" rx="2" />
    <path d="M8 10.5V8a4 4 0 0 1 8 0v2.5" />
  </>,
);
export const IconBook = /* @__PURE__ */ icon(
  <>
    <path d="M5 5.5A1.5 1.5 0 0 1 6.5 4H19v14H6.5A1.5 1.5 0 0 0 5 19.5z" />
    <path d="M5 19.5A1.5 1.5 0 0 0 6.5 21H19M9 8h6" />
  </>,
);
export const IconDots = /* @__PURE__ */ icon(<path d="M6 12h.01M12 12h.01M18 12h.01" strokeWidth={3} />);
export const IconTrash = /* @__PURE__ */ icon(
  <>
    <path d="M4.5 7h15M10 11v6M14 11v6" />
    <path d="M6.5 7l.8 11.2A1.5 1.5 0 0 0 8.8 19.5h6.4a1.5 1.5 0 0 0 1.5-1.3L17.5 7M9.5 7V5a1 1 0 0 1 1-1h3a1 1 0 0 1 1 1v2" />
  </>,
);
export const IconDownload = /* @__PURE__ */ icon(<path d="M12 4.5v10M7.5 10.5 12 15l4.5-4.5M5 19.5h14" />);
export const IconAlertTriangle = /* @__PURE__ */ icon(
  <>
    <path d="M10.3 4.8 3.2 17.5A2 2 0 0 0 5 20.5h14a2 2 0 0 0 1.8-3L13.7 4.8a2 2 0 0 0-3.4 0z" />
    <path d="M12 10v4M12 17h.01" />
  </>,
);
export const IconCreditCard = /* @__PURE__ */ icon(
  <>
    <rect x="3" y="5.5" width="18" height="13" rx="2.5" />
    <path d="M3 10h18M7 15h3" />
  </>,
);
export const IconReceipt = /* @__PURE__ */ icon(
  <>
    <path d="M6 3.5h12v17l-2.5-1.5-2 1.5-1.5-1.5-1.5 1.5-2-1.5L6 20.5z" />
    <path d="M9 8h6M9 11.5h6M9 15h3" />
  </>,
);
export const IconX = /* @__PURE__ */ icon(<path d="M6.5 6.5l11 11M17.5 6.5l-11 11" />);
export const IconPlayerPlay = /* @__PURE__ */ icon(<path d="M8 5.5v13l10.5-6.5z" />);
export const IconPlayerStop = /* @__PURE__ */ icon(<rect x="6.5" y="6.5" width="11" height="11" rx="1.5" />);
export const IconCircle = /* @__PURE__ */ icon(<circle cx="12" cy="12" r="7.5" />);
export const IconClock = /* @__PURE__ */ icon(
  <>
    <circle cx="12" cy="12" r="8.5" />
    <path d="M12 7.5V12l3 2" />
  </>,
);
export const IconMaximize = /* @__PURE__ */ icon(<path d="M4.5 9V4.5H9M15 4.5h4.5V9M19.5 15v4.5H15M9 19.5H4.5V15" />);
export const IconEye = /* @__PURE__ */ icon(
  <>
    <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);
export const IconBell = /* @__PURE__ */ icon(
  <>
    <path d="M6.5 16.5V11a5.5 5.5 0 0 1 11 0v5.5l1.5 1.5H5z" />
    <path d="M10 20.5a2 2 0 0 0 4 0" />
  </>,
);
