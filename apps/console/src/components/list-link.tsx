import type { ReactNode } from 'react';
import { Link, type LinkProps } from 'react-router';
import classes from './list-link.module.css';

interface ListLinkProps extends Omit<LinkProps, 'children' | 'className'> {
  /** Whether it is the page shown beside the list. */
  active: boolean;
  label: ReactNode;
  /** Lines under the label, each on its own, cut short with an ellipsis. */
  description?: ReactNode[];
  leftSection?: ReactNode;
  /** The label's weight: medium for a name, regular for an e-mail address (the staff's customer list). */
  labelWeight?: 'medium' | 'regular';
}

/**
 * An entry of a list of pages, as a light NavLink looks, current while its page is shown. A plain link: a NavLink is
 * several Mantine components per entry, and a list holds fifty. Other props (a tooltip's handlers) go to the link.
 */
export function ListLink({ active, label, description = [], leftSection, labelWeight = 'medium', ...link }: ListLinkProps) {
  return (
    <Link {...link} className={`mantine-focus-auto ${classes.link}`} aria-current={active ? 'page' : undefined}>
      {leftSection && <span className={classes.section}>{leftSection}</span>}
      <span className={classes.body}>
        <span className={classes.name} data-weight={labelWeight}>
          {label}
        </span>
        {description.map((line, index) => (
          <span key={index} className={classes.description}>
            {line}
          </span>
        ))}
      </span>
    </Link>
  );
}
