import { useRef, useState, type ReactNode } from 'react';
import { ActionIcon, Menu } from '@mantine/core';
import { IconDots } from './icons';

interface RowMenuProps {
  /** The button's accessible name ('Actions for …'). */
  label: string;
  /** The row's action is under way: the button shows a loader. */
  loading?: boolean;
  /** The menu's items. */
  children: ReactNode;
}

/**
 * A table row's ⋯ menu. Until it is first used the row holds a plain button: a Mantine Menu per row (its popover,
 * floating position and context) made most of the work of rendering a long table. The first press mounts the menu,
 * gives its button the focus and opens it, so from there on it behaves as a Menu always mounted would.
 */
export function RowMenu({ label, loading, children }: RowMenuProps) {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  // Set by the first press: the menu's button, once in place, takes the focus and opens the menu, once.
  const opening = useRef(false);
  const takeOver = (node: HTMLButtonElement | null) => {
    if (!node || !opening.current) return;
    opening.current = false;
    // Focused first, so closing the menu returns the focus to it.
    node.focus();
    setOpened(true);
  };
  const button = (
    <ActionIcon ref={takeOver} variant="subtle" color="gray" aria-label={label} aria-haspopup="menu" loading={loading}>
      <IconDots size={18} />
    </ActionIcon>
  );
  if (!mounted)
    return (
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={label}
        aria-haspopup="menu"
        loading={loading}
        onClick={() => {
          opening.current = true;
          setMounted(true);
        }}
      >
        <IconDots size={18} />
      </ActionIcon>
    );
  return (
    <Menu opened={opened} onChange={setOpened} position="bottom-end" shadow="md" width={200}>
      <Menu.Target>{button}</Menu.Target>
      <Menu.Dropdown>{children}</Menu.Dropdown>
    </Menu>
  );
}
