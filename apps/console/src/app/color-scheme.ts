import { localStorageColorSchemeManager } from '@mantine/core';

/** Where the profile menu's Light / Dark / System choice is kept; public/first-paint.js reads the same key. */
export const COLOR_SCHEME_STORAGE_KEY = 'kumo-color-scheme';

export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_STORAGE_KEY });
