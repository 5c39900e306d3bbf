import { VisuallyHidden } from '@mantine/core';
import classes from './animated-dots.module.css';

/** Three pulsing dots after a status that is still moving; the text underneath still reads '...'. */
export function AnimatedDots() {
  return (
    <>
      <span aria-hidden="true" data-testid="animated-dots">
        <span className={classes.dot} />
        <span className={classes.dot} />
        <span className={classes.dot} />
      </span>
      <VisuallyHidden component="span">...</VisuallyHidden>
    </>
  );
}
