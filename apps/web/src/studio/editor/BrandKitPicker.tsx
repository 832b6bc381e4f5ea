import { Anchor, Button, Group, Select } from '@mantine/core';
import type { BrandKit, CaptionStyle } from '@moments/contract';
import { defaultBrandKit, mergeKitStyle } from '@moments/domain/brand-kits';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useBrandKits, useUpdateBrandKit } from '../../api/brandKits';
import { t } from '../../messages/catalogue';

/**
 * The clip editor's brand kit: the one used last opens with the clip (the server remembers
 * which kit went into the last preview or export), another can be picked or none; the editor's
 * style changes can be saved back into the kit.
 */
export function useBrandKitOptions<O extends { style?: CaptionStyle }>(clipOptions: O) {
  const kits = useBrandKits();
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (chosen === undefined && kits.data) setChosen(defaultBrandKit(kits.data)?.id ?? null);
  }, [chosen, kits.data]);
  const kit = kits.data?.find((candidate) => candidate.id === chosen) ?? null;
  // The kit applies to the preview and the export alike: its logo, cards and style.
  const options = useMemo<O & { brand_kit_id?: string }>(
    () => (kit ? { ...clipOptions, brand_kit_id: kit.id } : clipOptions),
    [clipOptions, kit],
  );
  return {
    options,
    picker: { kits: kits.data ?? [], kit, onChoose: setChosen, style: clipOptions.style },
  };
}

export function BrandKitPicker({
  kits,
  kit,
  onChoose,
  style,
}: {
  kits: BrandKit[];
  kit: BrandKit | null;
  onChoose: (id: string | null) => void;
  /** The editor's caption style over the kit's, what "save changes to kit" keeps. */
  style: CaptionStyle | undefined;
}) {
  const update = useUpdateBrandKit();
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label={t('brandKits.picker')}
        data={[
          { value: '', label: t('brandKits.pickerNone') },
          ...kits.map((candidate) => ({ value: candidate.id, label: candidate.name })),
        ]}
        value={kit?.id ?? ''}
        allowDeselect={false}
        onChange={(value) => onChoose(value || null)}
        data-testid="brand-kit-picker"
      />
      {kit && (
        <Button
          variant="default"
          loading={update.isPending}
          disabled={!style}
          onClick={() =>
            update.mutate({
              id: kit.id,
              form: { style: mergeKitStyle(kit.style, style) ?? {} },
            })
          }
        >
          {t('brandKits.saveToKit')}
        </Button>
      )}
      <Anchor component={Link} to="/settings/brand" size="sm">
        {t('brandKits.manage')}
      </Anchor>
    </Group>
  );
}
