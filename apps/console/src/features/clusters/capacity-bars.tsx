const LEVELS = 5;
const BAR_INDEXES = Array.from({ length: LEVELS }, (_, index) => index);

/**
 * Query-engine capacity as five bars, that many lit (spec section 4: zero 0, low 1, moderate 3, high 4, full 5).
 * Plain elements with inline styles: a table shows one per row, and Mantine's style props cost each bar a render's work.
 */
export function CapacityBars({ capacity, size = 'md' }: { capacity: number; size?: 'sm' | 'md' }) {
  const lit = Math.max(0, Math.min(LEVELS, Math.round(capacity)));
  const height = size === 'sm' ? 12 : 16;
  const width = size === 'sm' ? 5 : 6;
  return (
    <div
      role="img"
      aria-label={`Capacity ${lit} of ${LEVELS}`}
      data-capacity={lit}
      style={{ display: 'flex', flexWrap: 'nowrap', alignItems: 'flex-end', gap: 3 }}
    >
      {BAR_INDEXES.map((index) => (
        <div
          key={index}
          style={{
            width,
            height: height * (0.55 + (0.45 * (index + 1)) / LEVELS),
            borderRadius: 2,
            backgroundColor: index < lit ? 'var(--mantine-color-teal-6)' : 'var(--mantine-color-gray-3)',
          }}
        />
      ))}
    </div>
  );
}
