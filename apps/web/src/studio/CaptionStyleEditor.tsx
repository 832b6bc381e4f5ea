import {
  Button,
  ColorInput,
  type ColorInputProps,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Slider,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import type { CaptionFontFamily, CaptionStyle } from '@moments/contract';
import { t } from '../messages/catalogue';

type FullStyle = CaptionTemplateStyle;
/** Every field as the chosen template draws it (GET /api/captions/templates). */
export type CaptionTemplateStyle = {
  [K in keyof CaptionStyle]-?: Exclude<CaptionStyle[K], undefined>;
};

interface Props {
  /** The template's own values (under a brand kit's): what a field shows until it is changed. */
  templateStyle: FullStyle | undefined;
  /** What the button that forgets every change says (back to the template, or to the kit). */
  resetLabel: string;
  /** The fields the user changed (sent as the export's `style`). */
  value: CaptionStyle;
  onChange(style: CaptionStyle): void;
  fonts: CaptionFontFamily[];
}

/**
 * The caption style over the template: font, size, colours, outline, shadow, box, position,
 * casing, paging, key words and emoji. A field keeps the template's value until it is changed;
 * "Reset to template" forgets every change.
 */
export function CaptionStyleEditor({ templateStyle, resetLabel, value, onChange, fonts }: Props) {
  if (!templateStyle) return null;
  const shown = { ...templateStyle, ...value } as FullStyle;
  const set = <K extends keyof CaptionStyle>(key: K, next: CaptionStyle[K] | undefined) => {
    const changed = { ...value };
    if (next === undefined || next === templateStyle[key]) delete changed[key];
    else changed[key] = next;
    onChange(changed);
  };
  const number =
    (key: 'font_size' | 'outline_width' | 'shadow' | 'max_words_per_line' | 'lines_per_caption') =>
    (next: string | number) =>
      set(key, typeof next === 'number' ? next : undefined);
  const color = (key: 'text_color' | 'highlight_color' | 'outline_color') => (next: string) =>
    set(key, /^#[0-9a-f]{6}$/i.test(next) ? next.toUpperCase() : undefined);
  return (
    <Stack gap="sm" data-testid="caption-style-editor">
      <Group justify="space-between">
        <Text fw={600}>{t('style.title')}</Text>
        <Button
          variant="subtle"
          size="xs"
          onClick={() => onChange({})}
          disabled={Object.keys(value).length === 0}
        >
          {resetLabel}
        </Button>
      </Group>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Select
          label={t('style.font')}
          data={fonts.map((font) => ({
            value: font.family,
            label: t('style.font.scripts', {
              family: font.family,
              scripts: font.scripts.join(', '),
            }),
          }))}
          value={shown.font_family}
          onChange={(next) => set('font_family', next ?? undefined)}
          allowDeselect={false}
          searchable
        />
        <NumberInput
          label={t('style.fontSize')}
          min={16}
          max={200}
          value={shown.font_size}
          onChange={number('font_size')}
        />
        <StyleColorInput
          label={t('style.textColor')}
          format="hex"
          value={shown.text_color}
          onChange={color('text_color')}
        />
        <StyleColorInput
          label={t('style.highlightColor')}
          format="hex"
          value={shown.highlight_color}
          onChange={color('highlight_color')}
        />
        <StyleColorInput
          label={t('style.outlineColor')}
          format="hex"
          value={shown.outline_color}
          onChange={color('outline_color')}
        />
        <NumberInput
          label={t('style.outlineWidth')}
          min={0}
          max={20}
          step={0.5}
          decimalScale={1}
          value={shown.outline_width}
          onChange={number('outline_width')}
        />
        <NumberInput
          label={t('style.shadow')}
          min={0}
          max={20}
          step={0.5}
          decimalScale={1}
          value={shown.shadow}
          onChange={number('shadow')}
        />
        <NumberInput
          label={t('style.wordsPerLine')}
          min={1}
          max={12}
          value={shown.max_words_per_line}
          onChange={number('max_words_per_line')}
        />
        <NumberInput
          label={t('style.linesPerCaption')}
          min={1}
          max={3}
          value={shown.lines_per_caption}
          onChange={number('lines_per_caption')}
        />
      </SimpleGrid>
      <Group align="flex-end">
        <Switch
          label={t('style.box')}
          checked={shown.box_color !== null}
          onChange={(event) => set('box_color', event.currentTarget.checked ? '#000000CC' : null)}
        />
        {shown.box_color !== null && (
          <StyleColorInput
            label={t('style.boxColor')}
            format="hexa"
            value={shown.box_color}
            onChange={(next) =>
              set('box_color', /^#[0-9a-f]{8}$/i.test(next) ? next.toUpperCase() : undefined)
            }
          />
        )}
      </Group>
      <div>
        <Text size="sm" fw={500} id="style-position-y">
          {t('style.positionY')}
        </Text>
        <Slider
          aria-labelledby="style-position-y"
          thumbLabel={t('style.positionY')}
          min={0.1}
          max={0.9}
          step={0.01}
          value={shown.position_y}
          onChange={(next) => set('position_y', next)}
          label={(next) => `${Math.round(next * 100)}%`}
        />
      </div>
      <Group>
        <Switch
          label={t('style.uppercase')}
          checked={shown.uppercase}
          onChange={(event) => set('uppercase', event.currentTarget.checked)}
        />
        <Switch
          label={t('style.emphasis')}
          checked={shown.emphasis === 'keywords'}
          onChange={(event) => set('emphasis', event.currentTarget.checked ? 'keywords' : 'none')}
        />
        <Switch
          label={t('style.emoji')}
          checked={shown.emoji}
          onChange={(event) => set('emoji', event.currentTarget.checked)}
        />
      </Group>
    </Stack>
  );
}

/** A colour field of the style: typed or picked (the eye dropper button has no name, axe). */
function StyleColorInput(props: ColorInputProps) {
  return <ColorInput withEyeDropper={false} {...props} />;
}
