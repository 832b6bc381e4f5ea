import { SegmentedControl, Text } from '@mantine/core';
import { useId } from 'react';

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
  return (
    <div>
      <Text size="sm" fw={500} mb={4} id={id}>
        {label}
      </Text>
      <SegmentedControl
        fullWidth
        aria-labelledby={id}
        data={[...data]}
        value={value}
        onChange={(next) => onChange(next as T)}
      />
    </div>
  );
}
