/** The screens on which a table with stacked-table.module.css's class shows its rows as cards (its media query). */
export const STACKED_TABLE_QUERY = '(max-width: 48em)';
