import { SegmentedControl, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useId } from 'react';
import { MOBILE_MEDIA_QUERY } from '../theme';

/**
 * Letters a phone's row of segments holds (390 px wide, less the panel's padding) before a label
 * is cut ("Slide + sp…"): a longer choice stacks its segments on a phone.
 */
const PHONE_ROW_LETTERS = 26;

/** A segmented choice with a visible label that also names it for screen readers. */
export function LabelledSegments<T extends string>({
  label,
  data,
  value,
  onChange,
}: {
  label: string;
  // T comes from `value` (the state), so a setter of that state fits `onChange` as it is.
  data: readonly (NoInfer<T> | { value: NoInfer<T>; label: string })[];
  value: T;
  onChange(value: NoInfer<T>): void;
}) {
  const id = useId();
  const phone = useMediaQuery(MOBILE_MEDIA_QUERY) ?? false;
  const letters = data
    .map((item) => (typeof item === 'string' ? item : item.label).length)
    .reduce((sum, length) => sum + length, 0);
  return (
    <div>
      <Text size="sm" fw={500} mb={4} id={id}>
        {label}
      </Text>
      <SegmentedControl
        fullWidth
        aria-labelledby={id}
        orientation={phone && letters > PHONE_ROW_LETTERS ? 'vertical' : 'horizontal'}
        data={[...data]}
        value={value}
        onChange={(next) => onChange(next as T)}
      />
    </div>
  );
}
