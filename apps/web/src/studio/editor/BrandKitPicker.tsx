import { Anchor, Button, Group, Select, Text } from '@mantine/core';
import type { BrandKit, CaptionStyle } from '@moments/contract';
import { mergeKitStyle } from '@moments/domain/brand-kits';
import { Link } from 'react-router';
import { useUpdateBrandKit } from '../../api/brandKits';
import { t } from '../../messages/catalogue';

/**
 * The clip editor's brand kit: pick one (its style fills the style controls, its logo and cards
 * go into the preview and the export) or none; "Save changes to kit" keeps the editor's style
 * changes in the kit, for every clip made with it.
 */
export function BrandKitPicker({
  kits,
  kit,
  onChoose,
  style,
  onSaved,
}: {
  kits: BrandKit[];
  kit: BrandKit | null;
  onChoose: (id: string | null) => void;
  /** The editor's caption style changes over the kit's, what "save changes to kit" keeps. */
  style: CaptionStyle;
  /** The changes are in the kit now: the editor holds none over it. */
  onSaved: () => void;
}) {
  const update = useUpdateBrandKit();
  const changed = Object.keys(style).length > 0;
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
          disabled={!changed}
          onClick={() =>
            update.mutate(
              { id: kit.id, form: { style: mergeKitStyle(kit.style, style) ?? {} } },
              { onSuccess: onSaved },
            )
          }
        >
          {t('brandKits.saveToKit')}
        </Button>
      )}
      {kit && update.isSuccess && !changed && (
        <Text size="sm" c="dimmed" role="status">
          {t('brandKits.savedToKit', { name: kit.name })}
        </Text>
      )}
      <Anchor component={Link} to="/settings/brand" size="sm">
        {t('brandKits.manage')}
      </Anchor>
    </Group>
  );
}
